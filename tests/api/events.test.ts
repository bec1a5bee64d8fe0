// GET /api/events (issue 28): the outbox streamed as server-sent events, resumed exactly, filtered
// by role, never skipping an event whose transaction commits late, purged with a reload, with
// heartbeats and presence, ending on sign-out and on server close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventStream, type EventStream, type Received } from '../support/event-stream';
import { startServer, type TestServer } from './harness';
import { createLanding, insertLeads, normalUserToken } from './leads-support';

let server: TestServer;

let staff: string;
let landing: { id: number; key: string };
const streams: EventStream[] = [];

beforeAll(async () => {
  server = await startServer({ EVENTS_HEARTBEAT_SECONDS: 0.3, EVENTS_POLL_MS: 20 });

  staff = await normalUserToken(server);
  landing = await createLanding(server.ctx.db);
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server.close();
});

const open = async (token: string, opts: Parameters<typeof openEventStream>[2] = {}) => {
  const stream = await openEventStream(server.url, token, opts);
  streams.push(stream);
  return stream;
};
let phone = 600000000;
const intake = async () => {
  const res = await server.request('POST', `/api/intake/${landing.key}`, {
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
});
