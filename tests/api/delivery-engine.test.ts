import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportsResponse } from '../../src/api/reports/contract';
import type { RoutingResponse } from '../../src/api/rules/contract';
import { routeLeads } from '../../server/services/delivery/engine';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';
import { createCustomer, createRule, everyDay } from './lives-support';
import { until } from '../support/until';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

// Leads are inserted as of an earlier day (the start-up and minute sweeps only take today's) and
// routed by the engine at chosen Paris moments.
const OLD = '2026-01-05T10:00:00Z';
const lead = async (landingId: number, code_postal = '30900', status = 'new') =>
  (await insertLeads(server.ctx.db, landingId, [{ code_postal, status, created_at: OLD }]))[0];
const route = async (ids: number[], at: string) => (await routeLeads(server.ctx, { leads: ids, offeredAt: new Date(at), now: new Date(at) })).outcomes;
const leadRow = async (id: number) =>
  (
    await server.ctx.db.query<{ entry_status: string; sold_to: string | null; rapport_id: number | null }>(
      'SELECT entry_status, sold_to, rapport_id FROM leads WHERE id = $1',
      [id],
    )
  ).rows[0];
const routing = async (landingId: number, id: number) =>
  (await json<RoutingResponse>(await server.request('GET', `/api/landings/data/${landingId}/routing/${id}`, { token }))).data;

describe('rule conditions', () => {
  it('delivers on the rule’s weekdays only (Paris days)', async () => {
    const landing = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token);
    const rule = await createRule(server, token, { customer_id: customer, landings: [landing.id], ...{ ...everyDay, tuesday: false } });
    // Monday 23 November 2026, 10:00 Paris.
    const monday = await lead(landing.id);
    expect((await route([monday], '2026-11-23T09:00:00Z')).get(monday)).toBe('delivered');
    // Tuesday 00:30 Paris is still Monday 23:30 UTC.
    const tuesday = await lead(landing.id);
    expect((await route([tuesday], '2026-11-23T23:30:00Z')).get(tuesday)).toBe('unmatched');
    const why = await routing(landing.id, tuesday);
    expect(why).toMatchObject({ outcome: 'unmatched', paris_time: '2026-11-24 00:30 tuesday', considered: [{ rule_id: rule.id, reason: 'day' }] });
    expect(await leadRow(tuesday)).toMatchObject({ entry_status: 'new', sold_to: null });
  });

  it('reads an hour window across midnight in Paris time', async () => {
    const landing = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token);
    await createRule(server, token, { customer_id: customer, landings: [landing.id], hours: { start: '22:00', end: '06:00' } });
    const cases: Array<[string, string]> = [
      ['2026-11-23T21:30:00Z', 'delivered'], // 22:30
      ['2026-11-23T23:59:00Z', 'delivered'], // 00:59
      ['2026-11-24T05:00:00Z', 'delivered'], // 06:00
      ['2026-11-24T05:01:00Z', 'unmatched'], // 06:01
      ['2026-11-24T11:00:00Z', 'unmatched'], // 12:00
      ['2026-11-24T20:59:00Z', 'unmatched'], // 21:59
    ];
    for (const [at, outcome] of cases) {
      const id = await lead(landing.id);
      expect((await route([id], at)).get(id), at).toBe(outcome);
      if (outcome === 'unmatched') expect((await routing(landing.id, id)).considered[0].reason).toBe('hours');
    }
  });

  it('follows the Paris clock through the daylight-saving days', async () => {
    const landing = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token);
    const night = await createRule(server, token, { name: 'Nuit', customer_id: customer, landings: [landing.id], hours: { start: '02:00', end: '02:59' } });
    // 29 March 2026, 01:30 UTC = 03:30 CEST: the skipped hour never opened.
    const spring = await lead(landing.id);
    expect((await route([spring], '2026-03-29T01:30:00Z')).get(spring)).toBe('unmatched');
    // 25 October 2026: 02:30 CEST and 02:30 CET both fall in the window, counted on the same day.
    const first = await lead(landing.id);
    const second = await lead(landing.id);
    expect((await route([first], '2026-10-25T00:30:00Z')).get(first)).toBe('delivered');
    expect((await route([second], '2026-10-25T01:30:00Z')).get(second)).toBe('delivered');
    const reports = await json<ReportsResponse>(await server.request('GET', `/api/rapports/rules/${night.id}`, { token }));
    expect(reports.data).toMatchObject([{ date: '2026-10-25', count: 2, leads: [first, second] }]);
  });

  it('tells a postal code from a department (30 vs 30000, 2A, 971)', async () => {
    const landing = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token);
    const exact = await createRule(server, token, { name: 'Nîmes', customer_id: customer, landings: [landing.id], zip: ['30000'] });
    const gard = await createRule(server, token, { name: 'Gard', customer_id: customer, landings: [landing.id], zip: ['30'] });
    const corse = await createRule(server, token, { name: 'Corse', customer_id: customer, landings: [landing.id], zip: ['2A', '971'] });
    const at = '2026-11-23T09:00:00Z';
    const uzes = await lead(landing.id, '30700');
    await route([uzes], at);
    const why = await routing(landing.id, uzes);
    expect(why).toMatchObject({ outcome: 'delivered', rule_id: gard.id });
    expect(why.considered.filter((c) => c.reason !== 'landing').map((c) => [c.rule_id, c.reason])).toEqual([
      [gard.id, null],
      [exact.id, 'zip'],
      [corse.id, 'zip'],
    ]);
    // Nîmes is both 30000 and department 30: the least filled wins (Nîmes, empty).
    const nimes = await lead(landing.id, '30000');
    await route([nimes], at);
    expect((await routing(landing.id, nimes)).rule_id).toBe(exact.id);
    const ajaccio = await lead(landing.id, '20000');
    const pointe = await lead(landing.id, '97110');
    await route([ajaccio, pointe], at);
    expect(await leadRow(ajaccio)).toMatchObject({ entry_status: 'extracted' });
    expect((await routing(landing.id, pointe)).rule_id).toBe(corse.id);
    const paris = await lead(landing.id, '75001');
    expect((await route([paris], at)).get(paris)).toBe('unmatched');
  });

  it('stops each rule at its cap, spreading leads to the least filled, then says cap reached', async () => {
    const landing = await createLanding(server.ctx.db);
    const a = await createRule(server, token, { name: 'A', customer_id: await createCustomer(server, token), landings: [landing.id], leads_number: 1 });
    const b = await createRule(server, token, { name: 'B', customer_id: await createCustomer(server, token), landings: [landing.id], leads_number: 3 });
    const ids = await insertLeads(
      server.ctx.db,
      landing.id,
      Array.from({ length: 6 }, () => ({ code_postal: '30900', created_at: OLD })),
    );
    const outcomes = await route(ids, '2026-11-23T09:00:00Z');
    expect([...outcomes.values()]).toEqual(['delivered', 'delivered', 'delivered', 'delivered', 'unmatched', 'unmatched']);
    const winners = await Promise.all(ids.slice(0, 4).map(async (id) => (await routing(landing.id, id)).rule_id));
    // 0/1 vs 0/3: tie broken by the oldest rule (A); then B is least filled until 3/3.
    expect(winners).toEqual([a.id, b.id, b.id, b.id]);
    const full = await routing(landing.id, ids[4]);
    expect(full.considered.filter((c) => c.reason !== 'landing').map((c) => [c.rule_id, c.reason, c.count])).toEqual([
      [a.id, 'cap', 1],
      [b.id, 'cap', 3],
    ]);
    // The list shows today's fill… of that day; its reports say it.
    const reports = await json<ReportsResponse>(await server.request('GET', `/api/rapports/rules/${b.id}`, { token }));
    expect(reports.data).toMatchObject([{ date: '2026-11-23', count: 3, leads_number: 3, leads: ids.slice(1, 4), rule_id: b.id }]);
  });

  it('skips paused rules and rules of paused customers', async () => {
    const landing = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token);
    const paused = await createRule(server, token, { name: 'En pause', customer_id: customer, landings: [landing.id], active: false });
    const other = await createCustomer(server, token);
    const resting = await createRule(server, token, { name: 'Client en pause', customer_id: other, landings: [landing.id] });
    await server.request('PATCH', `/api/customers/${other}`, { token, body: { active: false } });
    const id = await lead(landing.id);
    expect((await route([id], '2026-11-23T09:00:00Z')).get(id)).toBe('unmatched');
    expect((await routing(landing.id, id)).considered.filter((c) => c.reason !== 'landing').map((c) => [c.rule_id, c.reason])).toEqual([
      [paused.id, 'paused'],
      [resting.id, 'customer_paused'],
    ]);
    await server.request('PATCH', `/api/customers/rules/${paused.id}`, { token, body: { active: true } });
    const next = await lead(landing.id);
    expect((await route([next], '2026-11-23T09:00:00Z')).get(next)).toBe('delivered');
    expect((await routing(landing.id, next)).rule_id).toBe(paused.id);
  });
});

describe('the winner', () => {
  it('is extracted, sold to the customer, in the rule’s report of the day, downloadable in every format', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'Landing rapport' });
    const elsewhere = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token, { name: 'Acheteur Rapport' });
    const rule = await createRule(server, token, { name: 'Rapport', customer_id: customer, landings: [landing.id], leads_number: 5 });
    const foreign = await createRule(server, token, { name: 'Ailleurs', customer_id: customer, landings: [elsewhere.id] });
    const [id] = await insertLeads(server.ctx.db, landing.id, [{ code_postal: '30900', nom: '=HYPERLINK("x")', created_at: OLD }]);
    await route([id], '2026-11-23T09:00:00Z');
    const row = await leadRow(id);
    expect(row).toMatchObject({ entry_status: 'extracted', sold_to: 'Acheteur Rapport', rapport_id: expect.any(Number) });
    const why = await routing(landing.id, id);
    expect(why).toMatchObject({ outcome: 'delivered', rule_id: rule.id, customer_name: 'Acheteur Rapport' });
    expect(why.considered.find((c) => c.rule_id === foreign.id)?.reason).toBe('landing');
    // Asked through another landing, the lead is not found.
    expect((await server.request('GET', `/api/landings/data/${elsewhere.id}/routing/${id}`, { token })).status).toBe(404);

    for (const format of ['csv', 'txt', 'xlsx', 'pdf'] as const) {
      const res = await server.request('GET', `/api/rapports/${row.rapport_id}/file?format=${format}`, { token });
      expect(res.status, format).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(`rapport Rapport 2026-11-23.${format}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (format === 'csv') expect(body.toString('utf8')).toContain(`'=HYPERLINK`);
      if (format === 'pdf') expect(body.subarray(0, 5).toString()).toBe('%PDF-');
      if (format === 'xlsx') expect(body.subarray(0, 2).toString()).toBe('PK');
    }
    expect((await server.request('GET', `/api/rapports/${row.rapport_id}/file`, { token })).headers.get('content-type')).toBe('application/pdf');
    const bad = await server.request('GET', `/api/rapports/${row.rapport_id}/file?format=exe`, { token });
    expect(bad.status).toBe(422);
  });

  it('names a report file by its date, however long the rule’s name', async () => {
    const landing = await createLanding(server.ctx.db);
    const name = 'Règle de démonstration pour la région Provence-Alpes-Côte d’Azur, leads PAC air-eau, semaine'.padEnd(200, ' x');
    await createRule(server, token, { name, customer_id: await createCustomer(server, token), landings: [landing.id] });
    const id = await lead(landing.id);
    await route([id], '2026-11-23T09:00:00Z');
    const { rapport_id } = await leadRow(id);
    for (const format of ['pdf', 'xlsx', 'csv', 'txt'] as const) {
      const res = await server.request('GET', `/api/rapports/${rapport_id}/file?format=${format}`, { token });
      expect(res.status, format).toBe(200);
      expect(res.headers.get('content-disposition'), format).toMatch(new RegExp(`filename="rapport Regle de demonstration [^"]* 2026-11-23\\.${format}"`));
      await res.arrayBuffer();
    }
  });

  it('leaves leads that are no longer new, and leads offered on an earlier day, alone', async () => {
    const landing = await createLanding(server.ctx.db);
    await createRule(server, token, { customer_id: await createCustomer(server, token), landings: [landing.id] });
    const archived = await lead(landing.id, '30900', 'archived');
    expect((await route([archived], '2026-11-23T09:00:00Z')).get(archived)).toBe('not_new');
    const late = await lead(landing.id);
    const outcomes = (await routeLeads(server.ctx, { leads: [late], offeredAt: new Date('2026-11-22T09:00:00Z'), now: new Date('2026-11-23T09:00:00Z') }))
      .outcomes;
    expect(outcomes.get(late)).toBe('expired');
    expect(await leadRow(late)).toMatchObject({ entry_status: 'new' });
    expect((await routing(landing.id, late)).considered[0].reason).toBe('day');
    // Offered twice: delivered once.
    const twice = await lead(landing.id);
    await Promise.all([route([twice], '2026-11-23T09:00:00Z'), route([twice], '2026-11-23T09:00:00Z')]);
    const { rows } = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_routings WHERE lead_id = $1 AND outcome = $2', [
      twice,
      'delivered',
    ]);
    expect(rows[0].n).toBe(1);
    expect((await routing(landing.id, twice)).outcome).toBe('delivered');
  });
});

describe('the routing explanation', () => {
  it('blames the postal code only for rules whose list leaves the lead out, also for a lead never offered', async () => {
    const landing = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token);
    const everywhere = await createRule(server, token, { name: 'Partout', customer_id: customer, landings: [landing.id] });
    const gard = await createRule(server, token, { name: 'Gard', customer_id: customer, landings: [landing.id], zip: ['30'] });
    const herault = await createRule(server, token, { name: 'Hérault', customer_id: customer, landings: [landing.id], zip: ['34', '34000'] });
    const reasons = async (id: number) => (await routing(landing.id, id)).considered.filter((c) => c.reason !== 'landing').map((c) => [c.rule_id, c.reason]);
    // Never offered: a duplicate (not new) and a new lead not routed yet.
    const duplicate = await lead(landing.id, '30900', 'duplicate');
    expect(await routing(landing.id, duplicate)).toMatchObject({ outcome: 'not_new', rule_id: null });
    expect(await reasons(duplicate)).toEqual([[herault.id, 'zip']]);
    const pending = await lead(landing.id, '30900');
    expect(await routing(landing.id, pending)).toMatchObject({ outcome: 'pending' });
    expect(await reasons(pending)).toEqual([[herault.id, 'zip']]);
    // Once routed, the rules that covered it are those the engine tried.
    await route([pending], '2026-11-23T09:00:00Z');
    expect(await reasons(pending)).toEqual([
      [everywhere.id, null],
      [gard.id, 'lost'],
      [herault.id, 'zip'],
    ]);
  });
});

describe('every path that makes leads new offers them at once', () => {
  it('routes imported leads and the copies made by a conversion', async () => {
    const landing = await createLanding(server.ctx.db);
    const target = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token);
    const rule = await createRule(server, token, { customer_id: customer, landings: [landing.id, target.id], leads_number: 3 });
    const statusOf = async (ids: number[]) =>
      (await server.ctx.db.query<{ entry_status: string }>('SELECT entry_status FROM leads WHERE id = ANY($1::bigint[]) ORDER BY id', [ids])).rows.map(
        (r) => r.entry_status,
      );

    const res = await server.request('POST', `/api/landings/${landing.id}/import/excel`, {
      token,
      body: {
        form_import_from: 'salon',
        data: [
          { nom: 'A', telephone: '0611111111', code_postal: '30000' },
          { nom: 'B', telephone: '0611111112', code_postal: '34000' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const imported = (await server.ctx.db.query<{ id: number }>('SELECT id FROM leads WHERE landing_id = $1 ORDER BY id', [landing.id])).rows.map((r) => r.id);
    await until(async () => (await statusOf(imported)).every((s) => s === 'extracted'), 30_000, 'the imported leads routed');

    // Archived leads converted to the other landing: their copies are new, and offered.
    const originals = await insertLeads(server.ctx.db, landing.id, [
      { code_postal: '30900', status: 'archived' },
      { code_postal: '13001', status: 'archived' },
    ]);
    const converted = await json<{ data: { ids: number[] } }>(
      await server.request('POST', '/api/landings/convert/leads', { token, body: { landing: target.id, leads: originals } }),
    );
    await until(
      async () => (await server.ctx.db.query('SELECT 1 FROM lead_routings WHERE lead_id = ANY($1::bigint[])', [converted.data.ids])).rows.length === 2,
      30_000,
      'the copies routed',
    );
    // The cap of 3 a day: two imported, one copy delivered, the other copy stays new, full.
    expect((await statusOf(converted.data.ids)).sort()).toEqual(['extracted', 'new']);
    const reports = await json<ReportsResponse>(await server.request('GET', `/api/rapports/rules/${rule.id}`, { token }));
    expect(reports.data[0]).toMatchObject({ count: 3, leads_number: 3 });
  });
});
