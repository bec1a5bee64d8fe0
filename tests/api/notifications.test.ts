import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationsResponse } from '../../src/api/notifications/contract';
import { raiseAlert } from '../../server/services/alerts/raise';
import { sendAlertDigests } from '../../server/services/alerts/digest';
import { runBigExport } from '../../server/services/exports/big-export';
import { createUser } from '../../server/services/users';
import { ADMIN, freshPostgresDatabase, startServer, type TestServer } from './harness';
import { createLanding, json, normalUserToken } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';
import { startSmtp } from './smtp';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let token: string;
let other: string;
const OTHER = { email: 'seconde-admin@test.local', password: 'seconde-password-1' };
const NEWCOMER = { email: 'nouvelle-admin@test.local', password: 'nouvelle-password-1' };

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url });
  token = await server.login(ADMIN.email, ADMIN.password);
  await createUser(server.ctx.db, { name: 'Seconde Admin', ...OTHER, admin: true });
  other = await server.login(OTHER.email, OTHER.password);
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const list = async (query = '', as = token) => json<NotificationsResponse>(await server.request('GET', `/api/notifications${query}`, { token: as }));
const read = (body: unknown, as = token) => server.request('POST', '/api/notifications/read', { token: as, body });

describe('alerts', () => {
  it('raises each kind in the caller’s transaction and lists them newest first, with their subjects and the unread count', async () => {
    const customerId = await createCustomer(server, token, { name: 'Chauffage Blanc' });
    const landing = await createLanding(server.ctx.db, { name: 'PAC Alertes' });
    const rule = await createRule(server, token, { name: 'Hérault', customer_id: customerId, landings: [landing.id] });
    const adminId = (await server.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [ADMIN.email])).rows[0]!.id;
    await server.ctx.db.tx(async (q) => {
      await raiseAlert(q, { kind: 'webhook_paused', customerId });
      await raiseAlert(q, { kind: 'cap_reached', ruleId: rule.id, span: 'day' });
      await raiseAlert(q, { kind: 'budget_reached', customerId });
      await raiseAlert(q, { kind: 'return_rate_exceeded', customerId, rate: 12.5 });
      await raiseAlert(q, { kind: 'export_failed', exportId: 41, userId: adminId });
    });
    // An alert whose cause rolled back does not exist.
    await expect(
      server.ctx.db.tx(async (q) => {
        await raiseAlert(q, { kind: 'budget_reached', customerId });
        throw new Error('cause annulée');
      }),
    ).rejects.toThrow('cause annulée');

    const page = await list();
    expect(page.unread).toBe(5);
    expect(page.next_before).toBeNull();
    expect(page.data.map((n) => n.kind)).toEqual(['export_failed', 'return_rate_exceeded', 'budget_reached', 'cap_reached', 'webhook_paused']);
    expect(page.data).toEqual([
      expect.objectContaining({ kind: 'export_failed', export: { id: 41, user_id: adminId }, user: { id: adminId, name: expect.any(String) }, read: false }),
      expect.objectContaining({ kind: 'return_rate_exceeded', customer: { id: customerId, name: 'Chauffage Blanc' }, rate: 12.5 }),
      expect.objectContaining({ kind: 'budget_reached', customer: { id: customerId, name: 'Chauffage Blanc' } }),
      expect.objectContaining({ kind: 'cap_reached', rule: { id: rule.id, name: 'Hérault', customer_id: customerId }, span: 'day' }),
      expect.objectContaining({ kind: 'webhook_paused', customer: { id: customerId, name: 'Chauffage Blanc' } }),
    ]);

    // Paged: two at a time, each page after the last id of the previous one.
    const first = await list('?limit=2');
    expect(first.data.map((n) => n.id)).toEqual(page.data.slice(0, 2).map((n) => n.id));
    const second = await list(`?limit=2&before=${first.next_before}`);
    expect(second.data.map((n) => n.id)).toEqual(page.data.slice(2, 4).map((n) => n.id));
    const third = await list(`?limit=2&before=${second.next_before}`);
    expect(third.data.map((n) => n.id)).toEqual(page.data.slice(4).map((n) => n.id));
    expect(third.next_before).toBeNull();
  });

  it('keeps each admin’s read state: one, then all', async () => {
    const before = await list();
    const [newest, next] = before.data;
    const res = await read({ ids: [newest!.id, newest!.id] });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ unread: before.unread - 1, message: 'Notification lue' });
    expect((await list()).data[0]).toMatchObject({ id: newest!.id, read: true });
    // The other admin has read nothing.
    const theirs = await list('', other);
    expect(theirs.unread).toBe(before.unread);
    expect(theirs.data.every((n) => !n.read)).toBe(true);

    expect(await json(await read({ ids: [next!.id] }, other))).toMatchObject({ unread: before.unread - 1 });
    expect(await json(await read({ all: true }))).toEqual({ unread: 0, message: 'Toutes les notifications sont lues' });
    expect((await list()).data.every((n) => n.read)).toBe(true);
    expect((await list('', other)).unread).toBe(before.unread - 1);

    // An admin created after the alerts does not inherit them as unread.
    const newcomer = await createUser(server.ctx.db, { name: 'Nouvelle Admin', ...NEWCOMER, admin: true });
    const inherited = await list('', await server.login(NEWCOMER.email, NEWCOMER.password));
    expect(inherited.unread).toBe(0);
    expect(inherited.data.length).toBeGreaterThan(0);
    expect(inherited.data.every((n) => n.read)).toBe(true);
    await server.ctx.db.query('DELETE FROM users WHERE id = $1', [newcomer.id]);

    // Nor does an account made long ago and promoted now; demoted and promoted again, it starts afresh.
    const promoted = await createUser(server.ctx.db, { name: 'Ancienne Commerciale', email: 'promue@test.local', password: 'promue-password-1' });
    await server.ctx.db.query("UPDATE users SET created_at = now() - interval '1 year' WHERE id = $1", [promoted.id]);
    expect((await server.request('POST', `/api/users/admin/${promoted.id}`, { token })).status).toBe(200);
    const theirsNow = await list('', await server.login('promue@test.local', 'promue-password-1'));
    expect(theirsNow.unread).toBe(0);
    expect(theirsNow.data.every((n) => n.read)).toBe(true);
    await server.ctx.db.query('DELETE FROM users WHERE id = $1', [promoted.id]);
  });

  it('answers bad input with 422, an unknown alert with 404 and nothing marked, a normal user with 403', async () => {
    const expect422 = async (res: Response, field?: string) => {
      expect(res.status).toBe(422);
      const body = await json<{ error: string; message: string; errors?: Record<string, string> }>(res);
      expect(body.error).toBe('validation_failed');
      if (field) expect(Object.keys(body.errors ?? {})).toContain(field);
    };
    for (const query of ['?limit=0', '?limit=101', '?limit=abc', '?before=-1', '?before=1.5']) {
      await expect422(await server.request('GET', `/api/notifications${query}`, { token }));
    }
    for (const body of [{}, { ids: [] }, { ids: ['1'] }, { ids: [0] }, { ids: [1.5] }, { all: false }, { all: true, ids: [1] }, { ids: Array(501).fill(1) }]) {
      await expect422(await read(body, other));
    }
    const unread = (await list('', other)).unread;
    const known = (await list('', other)).data.find((n) => !n.read)!.id;
    const unknown = await read({ ids: [known, 999_999] }, other);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ error: 'not_found', message: 'Notification introuvable' });
    expect((await list('', other)).unread).toBe(unread);

    const staff = await normalUserToken(server);
    expect((await server.request('GET', '/api/notifications', { token: staff })).status).toBe(403);
    expect((await read({ all: true }, staff)).status).toBe(403);
  });

  it('raises export_failed when a big export fails', async () => {
    const adminId = (await server.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [ADMIN.email])).rows[0]!.id;
    // A landing deleted after the request: the job fails on it.
    const { id } = (
      await server.ctx.db.query<{ id: number }>(
        `INSERT INTO big_exports (user_id, landing_ids, statuses, start_day, end_day, book_type) VALUES ($1, '{987654}', '{new}', '2026-01-01', '2026-01-31', 'csv') RETURNING id`,
        [adminId],
      )
    ).rows[0]!;
    await runBigExport(server.ctx, id);
    expect((await server.ctx.db.query('SELECT state FROM big_exports WHERE id = $1', [id])).rows[0]).toEqual({ state: 'failed' });
    const page = await list();
    expect(page.data[0]).toMatchObject({ kind: 'export_failed', export: { id, user_id: adminId }, read: false });
    expect(page.unread).toBe(1);
  });
});

describe('the digest mail', () => {
  it('mails each kind at most once an hour to every admin, grouping its alerts; several instances at once send it once', async () => {
    await server.ctx.db.query(`UPDATE alerts SET mailed_at = now()`);
    const customerId = await createCustomer(server, token, { name: 'Isolation Roux' });
    const otherCustomer = await createCustomer(server, token, { name: 'Toiture Nord' });
    await server.ctx.db.tx(async (q) => {
      await raiseAlert(q, { kind: 'budget_reached', customerId });
      await raiseAlert(q, { kind: 'budget_reached', customerId: otherCustomer });
    });
    const sent = smtp.mails.length;
    // Two instances' runs at once (and the minute's scheduled one): one digest.
    await Promise.all([sendAlertDigests(server.ctx), sendAlertDigests(server.ctx)]);
    await until(async () => smtp.mails.length >= sent + 2, 30_000, 'a digest to each admin');
    const digests = () => smtp.mails.slice(sent).filter((m) => m.text.includes('Budget mensuel atteint'));
    expect(
      digests()
        .map((m) => m.to)
        .sort(),
    ).toEqual([[ADMIN.email], [OTHER.email]]);
    const text = digests()[0]!.text;
    expect(text).toContain('Subject: Alerte : Budget mensuel atteint (2)');
    expect(text).toContain('2 alertes ont été levées');
    expect(text).toContain('Le client « Isolation Roux » a atteint son budget mensuel.');
    expect(text).toContain('Le client « Toiture Nord » a atteint son budget mensuel.');
    expect(text).toContain(`/customers/rules/${customerId}`);

    // Within the hour, a new alert of that kind waits; another kind goes at once.
    await server.ctx.db.tx((q) => raiseAlert(q, { kind: 'budget_reached', customerId }));
    await server.ctx.db.tx((q) => raiseAlert(q, { kind: 'webhook_paused', customerId }));
    await sendAlertDigests(server.ctx);
    await until(async () => smtp.mails.slice(sent).filter((m) => m.text.includes('Webhook en pause')).length === 2, 30_000, 'the webhook digest');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(digests()).toHaveLength(2);

    // An hour later, the waiting alert goes, alone.
    await server.ctx.db.query(`UPDATE alert_digests SET sent_at = sent_at - interval '61 minutes' WHERE kind = 'budget_reached'`);
    await sendAlertDigests(server.ctx);
    await until(async () => digests().length === 4, 30_000, 'the next budget digest');
    const next = digests().slice(2);
    expect(next[0]!.text).toContain('Une alerte a été levée');
    expect(next[0]!.text).not.toContain('Toiture Nord');
  });
});

// PostgreSQL only (CI's second api run): two instances, each with its own pool and pg-boss, on one database.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the digest mail on two instances', () => {
  it('is sent once when both run it at the same moment, again and again', async () => {
    const shared = { DATABASE_URL: await freshPostgresDatabase(process.env.TEST_DATABASE_URL!), SMTP_URL: smtp.url };
    const [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
    try {
      const sent = smtp.mails.length;
      for (let round = 0; round < 5; round++) {
        await a.ctx.db.tx((q) => raiseAlert(q, { kind: 'export_failed', exportId: 100 + round, userId: 1 }));
        await a.ctx.db.query(`UPDATE alert_digests SET sent_at = sent_at - interval '61 minutes'`);
        await Promise.all([sendAlertDigests(a.ctx), sendAlertDigests(b.ctx), sendAlertDigests(a.ctx), sendAlertDigests(b.ctx)]);
      }
      // One admin on that database: one mail per round, each with its own alert.
      await until(async () => smtp.mails.length >= sent + 5, 30_000, 'five digests');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const digests = smtp.mails.slice(sent);
      expect(digests).toHaveLength(5);
      for (let round = 0; round < 5; round++) expect(digests.filter((m) => m.text.includes(`n° ${100 + round} `))).toHaveLength(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
