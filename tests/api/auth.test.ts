import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('sign-in', () => {
  it('signs in with the ADMIN_EMAIL account, trimming the login, and answers /api/me', async () => {
    const res = await server.request('POST', '/api/auth', { body: { username: `  ${ADMIN.email.toUpperCase()} `, password: ADMIN.password } });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    expect(token).toMatch(/^[\w-]{43}$/);
    const me = await server.request('GET', '/api/me', { token });
    expect(await me.json()).toEqual({ data: { id: expect.any(Number), email: ADMIN.email, name: 'Administrateur', admin: true, role: 'admin' } });
  });

  it('refuses a token in the query string', async () => {
    const res = await server.request('GET', '/api/user/info?token=abc');
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('token_in_query');
  });

  it('tells a missing token from a forged one', async () => {
    expect((await (await server.request('GET', '/api/me')).json()).error).toBe('token_not_provided');
    const forged = await server.request('GET', '/api/me', { token: 'x'.repeat(43) });
    expect(forged.status).toBe(401);
    expect((await forged.json()).error).toBe('token_invalid');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await server.request('POST', '/api/auth', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'bad_request', message: "Le corps de la requête n'est pas un JSON valide" });
  });
});
