import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const expectSecurityHeaders = (res: Response) => {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('upgrade-insecure-requests');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
};

describe('security headers', () => {
  it('come with every kind of answer: data, errors, unknown routes, downloads, preflights', async () => {
    const landing = await createLanding(server.ctx.db);
    const ids = await insertLeads(server.ctx.db, landing.id, [{}]);
    const exported = await json<{ data: { url: string } }>(
      await server.request('POST', `/api/landings/data/${landing.id}/export`, { token, body: { bookType: 'csv', leads: ids } }),
    );
    const answers = [
      await server.request('GET', '/api/me', { token }),
      await server.request('GET', '/api/me'),
      await server.request('POST', '/api/auth', { body: '{' }),
      await server.request('GET', '/api/nothing-here', { token }),
      await server.request('GET', exported.data.url),
      await server.request('OPTIONS', `/api/intake/${landing.key}`),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 400, 404, 200, 204]);
    answers.forEach(expectSecurityHeaders);
  });
});
