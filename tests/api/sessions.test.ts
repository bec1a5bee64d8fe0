// 'Mes sessions': list, end one, end every other; a session's id grants nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/services/users';
import { startServer, type TestServer } from './harness';

let server: TestServer;
const USER = { email: 'sessions@test.local', password: 'sessions-password-1' };

interface Listed {
  data: { id: number; current: boolean; user_agent: string; address: string | null; created_at: string; last_used_at: string; method: string }[];
}

const signIn = async (agent: string, ip: string) =>
  (
    (await (await server.request('POST', '/api/auth', { body: USER, headers: { 'user-agent': agent, 'x-forwarded-for': ip } })).json()) as {
      token: string;
    }
  ).token;
const sessions = async (token: string) => (await (await server.request('GET', '/api/me/sessions', { token })).json()) as Listed;

beforeAll(async () => {
  server = await startServer();
  await createUser(server.ctx.db, { name: 'Sessions', email: USER.email, password: USER.password });
});
afterAll(() => server.close());

describe('my sessions', () => {
  it("lists the account's sessions with their browser, address, method and times, the current one marked", async () => {
    const laptop = await signIn('Firefox on the laptop', '198.51.100.1');
    const phone = await signIn('Safari on the phone', '198.51.100.2');
    const { data } = await sessions(phone);
    expect(data).toHaveLength(2);
    expect(data.find((s) => s.current)).toMatchObject({ user_agent: 'Safari on the phone', address: '198.51.100.2', method: 'password' });
    expect(data.find((s) => !s.current)).toMatchObject({ user_agent: 'Firefox on the laptop', address: '198.51.100.1' });
    for (const s of data) expect(Date.parse(s.last_used_at)).toBeGreaterThanOrEqual(Date.parse(s.created_at));
    // Nothing listed is a token: none of them signs in.
    for (const s of data) expect((await server.request('GET', '/api/me', { token: String(s.id) })).status).toBe(401);
    expect(JSON.stringify(data)).not.toContain(laptop);
    await server.request('POST', '/api/me/sessions/end-others', { token: phone });
  });

  it('ends one session, which then signs nobody in; an id of another account is not found', async () => {
    const laptop = await signIn('Laptop', '198.51.100.1');
    const phone = await signIn('Phone', '198.51.100.2');
    const laptopId = (await sessions(phone)).data.find((s) => !s.current)!.id;

    await createUser(server.ctx.db, { name: 'Other', email: 'other@test.local', password: 'other-password-1' });
    const other = await server.login('other@test.local', 'other-password-1');
    const refused = await server.request('DELETE', `/api/me/sessions/${laptopId}`, { token: other });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { message: string }).message).toBe('Session introuvable');
    expect((await server.request('GET', '/api/me', { token: laptop })).status).toBe(200);

    const ended = await server.request('DELETE', `/api/me/sessions/${laptopId}`, { token: phone });
    expect(ended.status).toBe(200);
    expect((await server.request('GET', '/api/me', { token: laptop })).status).toBe(401);
    expect((await server.request('DELETE', `/api/me/sessions/${laptopId}`, { token: phone })).status).toBe(404);
    expect((await server.request('DELETE', '/api/me/sessions/abc', { token: phone })).status).toBe(404);
    await server.request('POST', '/api/me/sessions/end-others', { token: phone });
  });

  it("'Se déconnecter partout' ends every other session and keeps this one, audited", async () => {
    await server.ctx.db.query('DELETE FROM sessions');
    const tokens = [await signIn('A', '192.0.2.1'), await signIn('B', '192.0.2.2'), await signIn('C', '192.0.2.3')];
    const res = await server.request('POST', '/api/me/sessions/end-others', { token: tokens[2], headers: { 'x-forwarded-for': '192.0.2.3' } });
    expect(await res.json()).toEqual({ data: { count: 2 } });
    expect((await server.request('GET', '/api/me', { token: tokens[0] })).status).toBe(401);
    expect((await server.request('GET', '/api/me', { token: tokens[1] })).status).toBe(401);
    expect((await sessions(tokens[2])).data.map((s) => s.current)).toEqual([true]);
    const { rows } = await server.ctx.db.query<{ count: number; ip: string }>(
      "SELECT count, ip FROM audit_log WHERE action = 'sessions.end_others' ORDER BY id DESC LIMIT 1",
    );
    expect(rows[0]).toEqual({ count: 2, ip: '192.0.2.3' });
  });

  it('records when a session was last used, to the minute', async () => {
    const token = await signIn('Clock', '192.0.2.9');
    await server.ctx.db.query("UPDATE sessions SET last_used_at = now() - interval '10 minutes'");
    const before = Date.now() - 5 * 60_000;
    const listed = await sessions(token);
    expect(Date.parse(listed.data.find((s) => s.current)!.last_used_at)).toBeGreaterThan(before);
  });
});
