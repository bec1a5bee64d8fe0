// GET /api/events (issue 28): the outbox streamed as server-sent events, resumed exactly, filtered
// by role, never skipping an event whose transaction commits late, purged with a reload, with
// heartbeats and presence, ending on sign-out and on server close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../server/services/alerts/raise';
import type { Queryable } from '../../server/db/connection';
import { OutboxReader, purgeEvents, writeEvents } from '../../server/services/events/outbox';
import { archiveMonth } from '../../server/services/retention/archive';
import { openEventStream, type EventStream, type Received } from '../support/event-stream';
import { ADMIN, freshPostgresDatabase, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, normalUserToken } from './leads-support';
import { createCustomer } from './lives-support';

let server: TestServer;
let admin: string;
let staff: string;
let staffId: number;
let landing: { id: number; key: string };
const streams: EventStream[] = [];

beforeAll(async () => {
  server = await startServer({ EVENTS_HEARTBEAT_SECONDS: 0.3, EVENTS_POLL_MS: 20 });

  admin = await server.login(ADMIN.email, ADMIN.password);
  staff = await normalUserToken(server, 'marie.dupont@test.local');
  await server.ctx.db.query("UPDATE users SET name = 'Marie Dupont' WHERE email = 'marie.dupont@test.local'");
  staffId = (await server.ctx.db.query<{ id: number }>("SELECT id FROM users WHERE email = 'marie.dupont@test.local'")).rows[0]!.id;
  landing = await createLanding(server.ctx.db);
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server.close();
});

const open = async (token: string, opts: Parameters<typeof openEventStream>[2] = {}, on: TestServer = server) => {
  const stream = await openEventStream(on.url, token, opts);
  streams.push(stream);
  return stream;
};
let phone = 600000000;
const intake = async (on: TestServer = server, key = landing.key) => {
  const res = await on.request('POST', `/api/intake/${key}`, {
    body: { nom: 'Martin', telephone: `0${phone++}`, code_postal: '30000' },
    headers: { 'x-forwarded-for': `10.9.${phone % 250}.${(phone >> 8) % 250}` },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
};
const ofType = (events: Received[], type: string) => events.filter((e) => e.type === type);
const createdIds = (events: Received[]) => ofType(events, 'lead.created').map((e) => (e.event.data as { lead_id: number }).lead_id);

describe('the stream', () => {
  it('sends each change with its id, type and data, and resumes exactly after Last-Event-ID or ?after=', async () => {
    const live = await open(staff);
    const first = await intake();
    const [ids] = [await insertLeads(server.ctx.db, landing.id, [{}, {}])];
    const archived = await server.request('POST', '/api/landings/data', { body: { entry_status: 'archived', leads: ids }, token: staff });
    expect(archived.status).toBe(200);
    const second = await intake();
    await live.until((e) => createdIds(e).includes(second));
    expect(createdIds(live.events)).toEqual([first, second]);
    const status = ofType(live.events, 'leads.status')[0]!;
    expect(status.event).toMatchObject({
      type: 'leads.status',
      data: { landing_id: landing.id, ids, from: 'new', to: 'archived', by: { name: expect.any(String) } },
    });
    expect(status.id).toBe(status.event.id);
    const ordered = live.events.map((e) => e.id);
    expect(ordered).toEqual([...ordered].sort((a, b) => a - b));

    // Resumed after the first event: the two others, replayed, then what comes next.
    const byHeader = await open(staff, { lastEventId: live.events[0]!.id });
    const byQuery = await open(staff, { after: live.events[0]!.id });
    const missed = live.events.slice(1).map((e) => e.id);
    const third = await intake();
    for (const s of [byHeader, byQuery]) {
      await s.until((e) => createdIds(e).includes(third));
      expect(s.events.map((e) => e.id)).toEqual([...missed, s.events.at(-1)!.id]);
    }
    // The header wins over ?after=; a bad one is refused in French.
    const bad = await server.request('GET', '/api/events', { token: staff, headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: 'validation_failed', errors: { 'Last-Event-ID': "Identifiant d'événement invalide" } });
    expect((await server.request('GET', '/api/events?after=-1', { token: staff })).status).toBe(422);
    expect((await server.request('GET', '/api/events')).status).toBe(401);
  });

  it('opens with the id it starts after: a client that received no event yet resumes from it', async () => {
    const live = await open(staff);
    await live.until(() => live.start !== undefined);
    const created = await intake();
    const resumed = await open(staff, { lastEventId: live.start });
    await resumed.until((e) => createdIds(e).includes(created));
    expect(resumed.events.filter((e) => e.type === 'lead.created').map((e) => e.id)).toEqual(
      ofType(await live.until((e) => createdIds(e).includes(created)), 'lead.created').map((e) => e.id),
    );
  });
});

describe('who receives what', () => {
  it('sends lead events to everyone, sales, fills and alerts to admins, an export to its author and the admins', async () => {
    const [asStaff, asAdmin] = [await open(staff), await open(admin)];
    const db = server.ctx.db;
    await db.tx(async (q) => {
      await raiseAlert(q, { kind: 'budget_reached', customerId: 1 });
      await writeEvents(q, 'export.ready', [{ export_id: 1, user_id: staffId }], 'user', staffId);
      await writeEvents(q, 'export.ready', [{ export_id: 2, user_id: 1 }], 'user', 1);
      await writeEvents(q, 'rule.fill', [{ rule_id: 1, customer_id: 1, today: { count: 1, leads_number: 5 }, sold: { hour: 1, week: 1, month: 1 } }], 'admins');
    });
    const last = await intake();
    for (const s of [asStaff, asAdmin]) await s.until((e) => createdIds(e).includes(last));
    const kinds = (s: EventStream) => s.events.map((e) => (e.type === 'export.ready' ? `export ${(e.event.data as { export_id: number }).export_id}` : e.type));
    expect(kinds(asStaff)).toEqual(['export 1', 'lead.created']);
    expect(kinds(asAdmin)).toEqual(['notification', 'export 1', 'export 2', 'rule.fill', 'lead.created']);
    // A normal user resuming from before them is not replayed what it may not see either.
    const replay = await open(staff, { after: asAdmin.events[0]!.id - 1 });
    await replay.until((e) => createdIds(e).includes(last));
    expect(kinds(replay)).toEqual(['export 1', 'lead.created']);
  });
});

describe('every change to leads', () => {
  it('an import writes one leads.imported per status, not one event per row; a re-injection a leads.status and a lead.returned per sale; the retention a leads.deleted', async () => {
    const s = await open(admin);
    const rows = Array.from({ length: 300 }, (_, i) => ({ nom: `Lot ${i}`, telephone: `07${String(i % 250).padStart(8, '0')}`, code_postal: '30000' }));
    const imported = await server.request('POST', `/api/landings/${landing.id}/import/excel`, {
      body: { form_import_from: 'Salon', data: rows },
      token: staff,
    });
    expect(imported.status).toBe(200);
    const { rows: leads } = await server.ctx.db.query<{ id: number; entry_status: string }>(
      "SELECT id, entry_status FROM leads WHERE landing_id = $1 AND utm_medium = 'Salon' ORDER BY id",
      [landing.id],
    );
    await s.until((e) => ofType(e, 'leads.imported').length === 2);
    expect(ofType(s.events, 'lead.created')).toEqual([]);
    const byStatus = (status: string) => leads.filter((l) => l.entry_status === status).map((l) => l.id);
    expect(ofType(s.events, 'leads.imported').map((e) => e.event.data)).toEqual(
      ['new', 'duplicate'].map((status) => ({
        landing_id: landing.id,
        entry_status: status,
        count: byStatus(status).length,
        first_id: Math.min(...byStatus(status)),
        last_id: Math.max(...byStatus(status)),
        by: { id: staffId, name: 'Marie Dupont' },
      })),
    );
    expect(byStatus('duplicate')).toHaveLength(50);

    const customer = await createCustomer(server, admin, { name: 'Client Rendu' });
    const sold = byStatus('new').slice(0, 3);
    const exported = await server.request('POST', `/api/landings/data/${landing.id}/export`, {
      token: admin,
      body: { bookType: 'csv', leads: sold, for_customer: 'Client Rendu' },
    });
    expect(exported.status).toBe(200);
    const { rows: sales } = await server.ctx.db.query<{ id: number; lead_id: number; export_id: number }>(
      'SELECT id, lead_id, export_id FROM lead_sales WHERE lead_id = ANY($1::bigint[]) ORDER BY id',
      [sold],
    );
    expect((await server.request('POST', `/api/exports/insert/${sales[0]!.export_id}`, { token: admin })).status).toBe(200);
    await s.until((e) => ofType(e, 'lead.returned').length === 3);
    expect(ofType(s.events, 'lead.returned').map((e) => e.event.data)).toEqual(
      sales.map((sale) => ({ lead_id: sale.lead_id, landing_id: landing.id, sale_id: sale.id, customer: { id: customer, name: 'Client Rendu' } })),
    );
    expect(ofType(s.events, 'leads.status').map((e) => e.event.data)).toEqual([
      expect.objectContaining({ ids: sold, from: 'new', to: 'extracted' }),
      expect.objectContaining({ ids: sold, from: 'extracted', to: 'new', by: { id: expect.any(Number), name: expect.any(String) } }),
    ]);

    // Leads archived to files by the retention leave the lists as deleted, by the job (nobody).
    const old = await insertLeads(server.ctx.db, landing.id, [
      { created_at: '2024-01-15T10:00:00Z' },
      { created_at: '2024-01-20T10:00:00Z', status: 'archived' },
    ]);
    expect(await archiveMonth(server.ctx, '2024-01', null)).toBe(2);
    await s.until((e) => ofType(e, 'leads.deleted').length === 2);
    expect(ofType(s.events, 'leads.deleted').map((e) => e.event.data)).toEqual(
      expect.arrayContaining([
        { landing_id: landing.id, ids: [old[0]], from: 'new', by: null },
        { landing_id: landing.id, ids: [old[1]], from: 'archived', by: null },
      ]),
    );
    // Restored, they come back to the lists: one leads.restored per landing and status (a count
    // and the id range, as an import), by the admin who restored them.
    const restore = await server.request('POST', '/api/exports/archives/2024-01/restore', { token: admin });
    expect(restore.status).toBe(200);
    await s.until((e) => ofType(e, 'leads.restored').length === 2);
    const { rows: me } = await server.ctx.db.query<{ id: number; name: string }>('SELECT id, name FROM users WHERE email = $1', [ADMIN.email]);
    expect(ofType(s.events, 'leads.restored').map((e) => e.event.data)).toEqual(
      (['new', 'archived'] as const).map((status, i) => ({
        landing_id: landing.id,
        entry_status: status,
        count: 1,
        first_id: old[i],
        last_id: old[i],
        by: me[0],
      })),
    );
  });

  it('a conversion writes leads.converted with the copies, an undo and a deletion theirs, by their author', async () => {
    const s = await open(staff);
    const other = await createLanding(server.ctx.db);
    const ids = await insertLeads(server.ctx.db, landing.id, [{}, {}, {}]);
    const by = { id: staffId, name: 'Marie Dupont' };
    const converted = await server.request('POST', '/api/landings/convert/leads', {
      body: { landing: other.id, leads: [ids[0]], from_status: 'new' },
      token: staff,
    });
    expect(converted.status).toBe(200);
    const copies = ((await converted.json()) as { data: { ids: number[] } }).data.ids;
    const trashed = await server.request('POST', '/api/landings/data', {
      body: { entry_status: 'trashed', from_status: 'new', leads: [ids[1]] },
      token: staff,
    });
    const action = ((await trashed.json()) as { data: { action_id: number } }).data.action_id;
    expect((await server.request('POST', `/api/landings/data/undo/${action}`, { token: staff })).status).toBe(200);
    expect((await server.request('DELETE', '/api/landings/data', { body: { leads: [ids[2]] }, token: staff })).status).toBe(200);
    await s.until((e) => ofType(e, 'leads.deleted').length === 1);
    expect(s.events.map((e) => e.event.data)).toEqual([
      { landing_id: landing.id, ids: [ids[0]], from: 'new', to_landing_id: other.id, copy_ids: copies, by },
      { landing_id: landing.id, ids: [ids[1]], from: 'new', to: 'trashed', by },
      { landing_id: landing.id, ids: [ids[1]], from: 'trashed', to: 'new', by },
      { landing_id: landing.id, ids: [ids[2]], from: 'new', by },
    ]);
  });
});

describe('a list pinned to its ceiling', () => {
  it('reads its later pages, and its total, under the id its first page answered: leads arriving meanwhile shift nothing; the tabs count every lead', async () => {
    const pinned = await createLanding(server.ctx.db);
    const first = await insertLeads(
      server.ctx.db,
      pinned.id,
      Array.from({ length: 5 }, () => ({})),
    );
    const page = async (query: string) => {
      const res = await server.request('GET', `/api/landings/data/${pinned.id}?_limit=2&${query}`, { token: staff });
      expect(res.status).toBe(200);
      return (await res.json()) as { data: Array<{ id: number }>; total: number; ceiling: number };
    };
    const top = await page('_offset=0');
    expect(top.ceiling).toBeGreaterThanOrEqual(Math.max(...first));
    expect(top.data.map((l) => l.id)).toEqual([first[4], first[3]]);
    // Two leads arrive on top of the list while its user scrolls.
    await insertLeads(server.ctx.db, pinned.id, [{}, {}]);
    const next = await page(`_offset=2&_ceiling=${top.ceiling}`);
    expect(next.data.map((l) => l.id)).toEqual([first[2], first[1]]);
    expect(next).toMatchObject({ total: 5, ceiling: top.ceiling });
    const count = await server.request('GET', `/api/landings/data/${pinned.id}/count?_ceiling=${top.ceiling}`, { token: staff });
    expect(await count.json()).toEqual({ total: 5 });
    // Unpinned (the list shown again), they are on top.
    expect((await page('_offset=2')).data.map((l) => l.id)).toEqual([first[4], first[3]]);
    expect((await server.request('GET', `/api/landings/data/${pinned.id}?_ceiling=x`, { token: staff })).status).toBe(422);

    // The tabs' counts: every lead of the landing in each status, the new ones included.
    await server.request('POST', '/api/landings/data', { body: { entry_status: 'archived', leads: first.slice(0, 2) }, token: staff });
    const counts = await server.request('GET', `/api/landings/data/${pinned.id}/counts`, { token: staff });
    expect(await counts.json()).toEqual({ data: { new: 5, extracted: 0, archived: 2, trashed: 0, converted: 0, duplicate: 0 } });
    expect((await server.request('GET', '/api/landings/data/999999/counts', { token: staff })).status).toBe(404);
  });

  it('"all N matching" acts on the leads under the list\'s ceiling, those the user saw and counted, never on those arrived since', async () => {
    const pinned = await createLanding(server.ctx.db);
    const shown = await insertLeads(server.ctx.db, pinned.id, [{}, {}, {}]);
    const list = await server.request('GET', `/api/landings/data/${pinned.id}?_limit=2`, { token: staff });
    const { ceiling, total } = (await list.json()) as { ceiling: number; total: number };
    expect(total).toBe(3);
    const arrived = await insertLeads(server.ctx.db, pinned.id, [{}, {}]);
    const all = (status: string) => ({ ids: [pinned.id], entry_status: status, ceiling });
    const statuses = async () =>
      (await server.ctx.db.query<{ id: number; entry_status: string }>('SELECT id, entry_status FROM leads WHERE landing_id = $1 ORDER BY id', [pinned.id]))
        .rows;

    const archived = await server.request('POST', '/api/landings/data', { body: { entry_status: 'archived', filter: all('new') }, token: staff });
    expect((await archived.json()) as unknown).toMatchObject({ data: { count: 3 } });
    expect(await statuses()).toEqual([...shown.map((id) => ({ id, entry_status: 'archived' })), ...arrived.map((id) => ({ id, entry_status: 'new' }))]);
    // The archived tab's list, read after those arrived, has its own ceiling: above them.
    const sold = await server.request('POST', `/api/landings/data/${pinned.id}/export`, {
      body: { bookType: 'csv', filter: { ...all('archived'), ceiling: shown[1] } },
      token: staff,
    });
    expect(((await sold.json()) as { data: { count: number } }).data.count).toBe(2);
    const deleted = await server.request('DELETE', '/api/landings/data', { body: { filter: all('new') }, token: staff });
    expect(((await deleted.json()) as { data: { count: number } }).data.count).toBe(0);
    expect(await statuses()).toEqual([
      { id: shown[0], entry_status: 'extracted' },
      { id: shown[1], entry_status: 'extracted' },
      { id: shown[2], entry_status: 'archived' },
      ...arrived.map((id) => ({ id, entry_status: 'new' })),
    ]);
    // Without a ceiling: every matching lead, up to the newest.
    const everything = await server.request('DELETE', '/api/landings/data', { body: { filter: { ids: [pinned.id], entry_status: 'new' } }, token: staff });
    expect(((await everything.json()) as { data: { count: number } }).data.count).toBe(2);

    const bad = await server.request('POST', '/api/landings/data', {
      body: { entry_status: 'archived', filter: { ...all('new'), ceiling: -1 } },
      token: staff,
    });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: 'validation_failed', errors: { 'filter.ceiling': 'Identifiant de lead invalide' } });
  });
});

describe('keeping streams alive and honest', () => {
  it('sends a heartbeat comment every EVENTS_HEARTBEAT_SECONDS', async () => {
    const s = await open(staff);
    const started = performance.now();
    await s.until(() => s.heartbeats >= 3);
    // One timer beats for every stream: the first beat counted may be a tick that came while the
    // stream was opening, before `started`; the next two are 300 ms apart.
    expect(performance.now() - started).toBeGreaterThan(300);
  });

  it('ends the stream when its session ends (sign-out), and only that one', async () => {
    const other = await normalUserToken(server, 'leaving@test.local');
    const [leaving, staying] = [await open(other), await open(staff)];
    expect((await server.request('POST', '/api/login/logout', { token: other })).status).toBe(200);
    await leaving.ended;
    const id = await intake();
    await staying.until((e) => createdIds(e).includes(id));
  });

  it('answers a reload when the events after the given id were purged', async () => {
    const first = await open(staff);
    const old = await intake();
    await first.until((e) => createdIds(e).includes(old));
    const oldId = first.events.at(-1)!.id;
    await server.ctx.db.query("UPDATE events SET created_at = now() - interval '25 hours' WHERE id <= $1", [oldId]);
    expect(await purgeEvents(server.ctx.db, 24)).toBeGreaterThan(0);
    const resumed = await open(staff, { lastEventId: oldId - 1 });
    await resumed.until((e) => e.length > 0);
    expect(resumed.events[0]!.event).toMatchObject({ type: 'reload', data: { reason: 'gap' } });
    // After the reload it goes on from its id: the next change comes.
    const next = await intake();
    await resumed.until((e) => createdIds(e).includes(next));
    expect(resumed.events[0]!.id).toBeLessThan(resumed.events.at(-1)!.id);
    // Resuming from the last purged id itself missed nothing.
    const exact = await open(staff, { lastEventId: oldId });
    await exact.until((e) => createdIds(e).includes(next));
    expect(exact.events.some((e) => e.type === 'reload')).toBe(false);
  });
});

describe('presence', () => {
  const users = (e: Received) => (e.event.data as { users: Array<{ name: string; initials: string }> }).users.map((u) => u.initials);
  const presence = (s: EventStream) => ofType(s.events, 'presence');

  it('tells those at a place who is there when someone comes or goes', async () => {
    const place = `landing:${landing.id}/new`;
    const marie = await open(staff, { place });
    await marie.until((e) => ofType(e, 'presence').length === 1);
    expect(users(presence(marie)[0]!)).toEqual(['MD']);
    const elsewhere = await open(staff, { place: `landing:${landing.id}/archived` });
    const adminHere = await open(admin, { place });
    await marie.until((e) => ofType(e, 'presence').length === 2);
    expect(presence(marie)[1]!.event.data).toMatchObject({ place, users: [{ name: expect.any(String) }, { name: 'Marie Dupont', initials: 'MD' }] });
    adminHere.close();
    await marie.until((e) => ofType(e, 'presence').length === 3);
    expect(users(presence(marie)[2]!)).toEqual(['MD']);
    expect(presence(elsewhere).every((e) => (e.event.data as { place: string }).place !== place)).toBe(true);
    expect((await server.request('GET', '/api/events?place=nowhere', { token: staff })).status).toBe(422);
  });
});

// Several instances on one PostgreSQL (CI's PostgreSQL shards): what PGlite, one process, cannot show.
const postgres = process.env.TEST_DATABASE_URL;
describe.skipIf(!postgres)('on PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const shared = { DATABASE_URL: await freshPostgresDatabase(postgres!), EVENTS_HEARTBEAT_SECONDS: 0.3, EVENTS_POLL_MS: 20 };
    [a, b] = await Promise.all([startServer(shared), startServer(shared)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('never skips an event whose transaction commits after a later one', async () => {
    const key = (await createLanding(a.ctx.db)).key;
    const s = await open(await a.login(ADMIN.email, ADMIN.password), {}, a);
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let early!: number;
    const slow = a.ctx.db.tx(async (q) => {
      await writeEvents(q, 'rule.fill', [{ rule_id: 7, customer_id: 7, today: { count: 1, leads_number: 2 }, sold: { hour: 1, week: 1, month: 1 } }], 'admins');
      early = (await q.query<{ id: number }>('SELECT max(id)::int AS id FROM events')).rows[0]!.id;
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const later = await intake(a, key);
    // The later event committed first: it waits for the earlier id to settle, then both come, in id order.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(createdIds(s.events)).not.toContain(later);
    commit();
    await slow;
    await s.until((e) => createdIds(e).includes(later));
    expect(s.events.map((e) => e.type)).toEqual(['rule.fill', 'lead.created']);
    expect(s.events[0]!.id).toBe(early);
    expect(s.events[1]!.id).toBeGreaterThan(early);
  });

  it('streams on each instance what the other wrote, in one order, and resumes across them', async () => {
    const key = (await createLanding(a.ctx.db)).key;
    const [onA, onB] = [await open(await a.login(ADMIN.email, ADMIN.password), {}, a), await open(await b.login(ADMIN.email, ADMIN.password), {}, b)];
    const ids = [await intake(a, key), await intake(b, key), await intake(a, key)];
    for (const s of [onA, onB]) await s.until((e) => ids.every((id) => createdIds(e).includes(id)));
    expect(onB.events.map((e) => e.id)).toEqual(onA.events.map((e) => e.id));
    // A stream resumed on the other instance continues exactly.
    const resumed = await open(await b.login(ADMIN.email, ADMIN.password), { lastEventId: onA.events[0]!.id }, b);
    await resumed.until((e) => createdIds(e).includes(ids[2]!));
    expect(resumed.events.map((e) => e.id)).toEqual(onA.events.slice(1).map((e) => e.id));
  });

  it('ends its streams when the server closes', async () => {
    const c = await startServer({ DATABASE_URL: a.ctx.config.DATABASE_URL });
    const s = await openEventStream(c.url, await c.login(ADMIN.email, ADMIN.password));
    await c.close();
    await s.ended;
  });
});

// Last: the notification it writes would reach the streams the cases above open, on PostgreSQL
// where a stream starts at the hub's settled cursor, which a poll may not have passed yet.
describe('the poller', () => {
  it('reads an outbox where nothing was written with one statement, and what is written next at the following poll', async () => {
    const { db } = server.ctx;
    let statements = 0;
    const counting: Queryable = { ...db, parallel: db.parallel, query: (text, values) => (statements++, db.query(text, values)) };
    const reader = new OutboxReader();
    // Until every top read is settled (on PostgreSQL: after the poller's own xids are passed).
    for (let i = 0; i < 50; i++) {
      statements = 0;
      await reader.poll(counting);
      if (reader.cursor !== undefined && statements === 1) break;
    }
    expect(statements).toBe(1);
    await writeEvents(db, 'notification', [{ alert_id: 0, kind: 'poll-test' }], 'admins');
    const read = [];
    for (let i = 0; i < 50 && read.length === 0; i++) read.push(...(await reader.poll(counting)));
    expect(read.map((e) => e.type)).toEqual(['notification']);
  });
});

describe('with no stream open', () => {
  it('the poller sleeps, and a stream opened later replays what was written meanwhile after its id, or starts from now', async () => {
    const last = await open(staff);
    await last.until(() => last.start !== undefined);
    const before = await intake();
    await last.until((e) => createdIds(e).includes(before));
    const seen = last.events.at(-1)!.id;
    streams.forEach((s) => s.close());
    const { db } = server.ctx;
    const query = db.query;
    let polls = 0;
    db.query = ((text: string, values?: unknown[]) => {
      if (text.includes('events_id_seq')) polls++;
      return query.call(db, text, values);
    }) as typeof db.query;
    try {
      // The server learns of the closed sockets, then nothing reads the outbox (a poll every 20 ms otherwise).
      await new Promise((resolve) => setTimeout(resolve, 300));
      polls = 0;
      const meanwhile = await intake();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(polls).toBe(0);

      const resumed = await open(staff, { after: seen });
      const fresh = await open(staff);
      await fresh.until(() => fresh.start !== undefined);
      const next = await intake();
      await resumed.until((e) => createdIds(e).includes(next));
      await fresh.until((e) => createdIds(e).includes(next));
      expect(createdIds(resumed.events)).toEqual([meanwhile, next]);
      expect(createdIds(fresh.events)).toEqual([next]);
    } finally {
      db.query = query;
    }
  });
});
