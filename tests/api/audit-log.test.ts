// GET /api/audit and its CSV export: who did what, when, on what, from which address; read only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditResponse } from '../../src/api/audit/contract';
import { createUser } from '../../server/services/users';
import { ADMIN, startServer, type TestServer } from './harness';

let server: TestServer;
let admin: string;
let staffId: number;

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const list = async (query = '', token = admin) => {
  const res = await server.request('GET', `/api/audit${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as AuditResponse;
};

beforeAll(async () => {
  server = await startServer();
  admin = (
    (await (await server.request('POST', '/api/auth', { body: { email: ADMIN.email, password: ADMIN.password }, headers: from('198.51.100.7') })).json()) as {
      token: string;
    }
  ).token;
  staffId = (await createUser(server.ctx.db, { name: 'Agent', email: 'agent@test.local', password: 'agent-password-1' })).id;
});
afterAll(() => server.close());

describe('the audit log', () => {
  it('records sign-ins, failed sign-ins, sign-outs and admin actions with the address they came from, newest first', async () => {
    await server.request('POST', '/api/auth', { body: { email: 'agent@test.local', password: 'wrong-password' }, headers: from('203.0.113.9') });
    const staff = (
      (await (
        await server.request('POST', '/api/auth', { body: { email: 'agent@test.local', password: 'agent-password-1' }, headers: from('203.0.113.9') })
      ).json()) as { token: string }
    ).token;
    await server.request('POST', '/api/login/logout', { token: staff, headers: from('203.0.113.9') });
    const promoted = await server.request('POST', `/api/users/admin/${staffId}`, { token: admin, headers: from('198.51.100.7') });
    expect(promoted.status).toBe(200);

    const { data } = await list();
    expect(data.slice(0, 4).map((r) => [r.action, r.actor?.email ?? null, r.address])).toEqual([
      ['users.promote', ADMIN.email, '198.51.100.7'],
      ['auth.sign_out', 'agent@test.local', '203.0.113.9'],
      ['auth.sign_in', 'agent@test.local', '203.0.113.9'],
      ['auth.sign_in_failed', null, '203.0.113.9'],
    ]);
    expect(data[0]).toMatchObject({ entity: 'user', count: 1, details: { user_id: staffId }, at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect(data[3].details).toEqual({ login: 'agent@test.local', method: 'password' });
  });

  it('filters by actor, action, entity and Paris days, and lists the values to filter by', async () => {
    const byAction = await list('?action=auth.sign_in');
    expect(byAction.data.length).toBeGreaterThan(0);
    expect(byAction.data.every((r) => r.action === 'auth.sign_in')).toBe(true);
    expect(byAction.actions).toEqual(expect.arrayContaining(['auth.sign_in', 'auth.sign_in_failed', 'users.promote']));
    expect(byAction.entities).toEqual(expect.arrayContaining(['session', 'user']));

    const byActor = await list(`?actor=${staffId}`);
    expect(new Set(byActor.data.map((r) => r.actor?.id))).toEqual(new Set([staffId]));
    expect((await list('?entity=user')).data.every((r) => r.entity === 'user')).toBe(true);

    await server.ctx.db.query("INSERT INTO audit_log (at, user_id, action, entity, count) VALUES ('2025-03-01 23:30:00+00', NULL, 'import', 'leads', 5)");
    // 23:30 UTC on 1 March is 00:30 on 2 March in Paris.
    expect((await list('?from=2025-03-02&to=2025-03-02')).data.map((r) => r.action)).toEqual(['import']);
    expect((await list('?from=2025-03-01&to=2025-03-01')).data).toEqual([]);
    expect((await list('?to=2025-03-02&action=&entity=')).data.map((r) => r.count)).toEqual([5]);
  });

  it('pages newest first with a cursor, every row once', async () => {
    for (let i = 0; i < 5; i++)
      await server.request('POST', '/api/auth', { body: { email: 'nobody@test.local', password: 'x' }, headers: from(`192.0.2.${i + 1}`) });
    const all = (await list('?_limit=500')).data.map((r) => r.id);
    const seen: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: AuditResponse = await list(`?_limit=3${cursor ? `&_cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.data.map((r) => r.id));
      cursor = page.next_cursor;
    }
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThan(6);
  });

  it('refuses bad filters and a forged cursor with French 422s, and is admin only', async () => {
    for (const query of ['?from=2025-13-45x', '?actor=abc', '?_limit=0', '?_cursor=forged.cursor']) {
      const res = await server.request('GET', `/api/audit${query}`, { token: admin });
      expect(res.status, query).toBe(422);
    }
    const staff = await server.login('agent@test.local', 'agent-password-1');
    await server.request('POST', `/api/users/admin/${staffId}`, { token: admin }); // back to normal
    const other = await server.login('agent@test.local', 'agent-password-1');
    expect((await server.request('GET', '/api/audit', { token: other })).status).toBe(403);
    expect(staff).not.toBe(other);
  });

  it('exports the filtered log as CSV, the download itself audited', async () => {
    const res = await server.request('GET', '/api/audit/export.csv?action=auth.sign_in_failed', { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/journal-audit-\d{4}-\d{2}-\d{2}\.csv/);
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id;date;compte_id;compte;email;action;objet;nombre;adresse;details');
    const failures = (await list('?action=auth.sign_in_failed&_limit=500')).data;
    expect(lines.length - 1).toBe(failures.length);
    expect(lines.slice(1).every((l) => l.includes(';auth.sign_in_failed;session;'))).toBe(true);
    const [download] = (await list('?action=download&entity=audit_log')).data;
    expect(download).toMatchObject({ actor: { email: ADMIN.email }, details: { filters: { action: 'auth.sign_in_failed' } } });
  });

  it('offers no way to change or delete a row', () => {
    const writes = server.app.apiRoutes.filter((r) => r.url.startsWith('/api/audit') && r.method !== 'GET');
    expect(writes).toEqual([]);
  });
});
