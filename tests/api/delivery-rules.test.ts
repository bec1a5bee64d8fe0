import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutingResponse } from '../../src/api/rules/contract';
import { routeLeads } from '../../server/services/delivery/engine';
import { pruneWindows } from '../../server/services/delivery/offer';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, type LeadSeed } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

// Issue 25's rule fields, set in the database (their API is the rules' contract): windows,
// priority and weight, filters, exclusive or shared leads, dedupe by person; each live sale a
// lead_sales row. Leads are inserted as of an earlier day and routed at chosen Paris moments.
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const OLD = '2026-01-05T10:00:00Z';
let phoneSeq = 0;
const freshPhone = () => `06${String(20_000_000 + ++phoneSeq).padStart(8, '0')}`;
const lead = async (landingId: number, seed: LeadSeed = {}) =>
  (await insertLeads(server.ctx.db, landingId, [{ code_postal: '30900', telephone: freshPhone(), created_at: OLD, ...seed }]))[0];
const route = async (id: number, at: string) => (await routeLeads(server.ctx, { leads: [id], offeredAt: new Date(at), now: new Date(at) })).outcomes.get(id);
const routing = async (landingId: number, id: number) =>
  (await json<RoutingResponse>(await server.request('GET', `/api/landings/data/${landingId}/routing/${id}`, { token }))).data;
const setRule = (id: number, fields: Record<string, unknown>) =>
  server.ctx.db.query(
    `UPDATE rules SET ${Object.keys(fields)
      .map((k, i) => `${k} = $${i + 2}`)
      .join(', ')} WHERE id = $1`,
    [id, ...Object.values(fields).map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : v))],
  );
const reasons = async (landingId: number, id: number) =>
  (await routing(landingId, id)).considered.filter((c) => c.reason !== 'landing').map((c) => [c.rule_name, c.reason]);
const salesOf = async (id: number) =>
  (
    await server.ctx.db.query<{ rule_id: number; customer_id: number; report_id: number; channel: string; price_cents: number; phone: string; sold_at: Date }>(
      'SELECT rule_id, customer_id, report_id, channel, price_cents, phone, sold_at FROM lead_sales WHERE lead_id = $1 ORDER BY id',
      [id],
    )
  ).rows;

/** A landing and `n` rules of distinct customers on it (every day, all day, day cap 100 unless told). */
async function setup(n: number, fields: Array<Record<string, unknown>> = []) {
  const landing = await createLanding(server.ctx.db);
  const rules = [];
  for (let i = 0; i < n; i++) {
    const rule = await createRule(server, token, {
      name: `R${i + 1}`,
      customer_id: await createCustomer(server, token, { name: `Acheteur ${landing.id}-${i + 1}` }),
      landings: [landing.id],
      leads_number: 100,
    });
    if (fields[i] && Object.keys(fields[i]).length > 0) await setRule(rule.id, fields[i]);
    rules.push(rule);
  }
  return { landing, rules };
}

describe('windows', () => {
  it('caps the wall-clock hour, the ISO week and the calendar month, each named when full', async () => {
    const { landing, rules } = await setup(1, [{ cap_hour: 2, cap_week: 3, cap_month: 4 }]);
    // Sunday 29 November 2026 10:05, 10:40, 10:55 Paris: the third finds the hour full.
    expect(await route(await lead(landing.id), '2026-11-29T09:05:00Z')).toBe('delivered');
    expect(await route(await lead(landing.id), '2026-11-29T09:40:00Z')).toBe('delivered');
    const third = await lead(landing.id);
    expect(await route(third, '2026-11-29T09:55:00Z')).toBe('unmatched');
    expect((await routing(landing.id, third)).considered[0]).toMatchObject({
      reason: 'cap_hour',
      windows: { hour: { count: 2, cap: 2 }, week: { count: 2, cap: 3 }, month: { count: 2, cap: 4 } },
    });
    // 11:00: a new hour, the week's third.
    expect(await route(third, '2026-11-29T10:00:00Z')).toBe('delivered');
    const fourth = await lead(landing.id);
    expect(await route(fourth, '2026-11-29T22:59:00Z')).toBe('unmatched');
    expect(await reasons(landing.id, fourth)).toEqual([['R1', 'cap_week']]);
    // Monday 30 November 00:00 Paris (23:00 UTC): a new week, the month's fourth; then the month is full.
    expect(await route(fourth, '2026-11-29T23:00:00Z')).toBe('delivered');
    const fifth = await lead(landing.id);
    expect(await route(fifth, '2026-11-30T12:00:00Z')).toBe('unmatched');
    expect(await reasons(landing.id, fifth)).toEqual([['R1', 'cap_month']]);
    // 1 December: a new month.
    expect(await route(fifth, '2026-12-01T08:00:00Z')).toBe('delivered');
    const { rows } = await server.ctx.db.query<{ span: string; start: string; count: number }>(
      `SELECT span, to_char(start, 'YYYY-MM-DD HH24:MI') AS start, count FROM rule_windows WHERE rule_id = $1 ORDER BY span, start`,
      [rules[0].id],
    );
    expect(rows.filter((r) => r.span !== 'hour')).toEqual([
      { span: 'month', start: '2026-11-01 00:00', count: 4 },
      { span: 'month', start: '2026-12-01 00:00', count: 1 },
      { span: 'week', start: '2026-11-23 00:00', count: 3 },
      { span: 'week', start: '2026-11-30 00:00', count: 2 },
    ]);
  });

  it('drops the counters of windows that ended long ago, keeping the current ones', async () => {
    const { landing, rules } = await setup(1);
    await route(await lead(landing.id), '2026-01-05T09:00:00Z');
    await route(await lead(landing.id), new Date().toISOString());
    const spans = async () =>
      (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM rule_windows WHERE rule_id = $1', [rules[0].id])).rows[0].n;
    expect(await spans()).toBe(6);
    expect(await pruneWindows(server.ctx.db)).toBeGreaterThanOrEqual(3);
    expect(await spans()).toBe(3);
  });

  it('counts the October 02:00 hour, lived twice, as one window', async () => {
    const { landing } = await setup(1, [{ cap_hour: 1 }]);
    expect(await route(await lead(landing.id), '2026-10-25T00:30:00Z')).toBe('delivered'); // 02:30 CEST
    const again = await lead(landing.id);
    expect(await route(again, '2026-10-25T01:30:00Z')).toBe('unmatched'); // 02:30 CET
    expect(await reasons(landing.id, again)).toEqual([['R1', 'cap_hour']]);
    expect(await route(again, '2026-10-25T02:00:00Z')).toBe('delivered'); // 03:00 CET
  });
});

describe('order', () => {
  it('serves a better priority first, then the smallest count / weight', async () => {
    const { landing, rules } = await setup(3, [{ priority: 3 }, { priority: 1, weight: 1 }, { priority: 1, weight: 3 }]);
    const winners = [];
    for (let i = 0; i < 8; i++) {
      const id = await lead(landing.id);
      await route(id, '2026-11-23T09:00:00Z');
      winners.push((await routing(landing.id, id)).rule_id);
    }
    const [r1, r2, r3] = rules.map((r) => r.id);
    // 0/1 vs 0/3: tie, the older rule; then 1/1 vs 0/3, 1/1 vs 1/3, 1/1 vs 2/3, 1/1 vs 3/3 (tie: older delivery)…
    expect(winners).toEqual([r2, r3, r3, r3, r2, r3, r3, r3]);
    expect(winners).not.toContain(r1);
    await setRule(r2, { cap_hour: 2 });
    await setRule(r3, { active: false });
    const id = await lead(landing.id);
    await route(id, '2026-11-23T09:00:00Z');
    const why = await routing(landing.id, id);
    expect(why.rule_id).toBe(r1);
    expect(why.considered.filter((c) => c.reason !== 'landing').map((c) => [c.rule_id, c.reason, c.priority])).toEqual([
      [r1, null, 3],
      [r2, 'cap_hour', 1],
      [r3, 'paused', 1],
    ]);
  });
});

describe('filters', () => {
  it('pass over a rule whose filter the lead fails, naming the filter', async () => {
    const gas = { column: 'chauffage', op: 'in', value: ['Gaz', 'Fioul'] };
    const big = { column: 'surface', op: 'gte', value: 100 };
    const google = { column: 'source', op: 'eq', value: 'google' };
    const { landing, rules } = await setup(2, [{ filters: [gas, big], priority: 1 }, { filters: [google] }]);
    const small = await lead(landing.id, { extra: { chauffage: 'gaz', surface: 80 } });
    await route(small, '2026-11-23T09:00:00Z');
    const why = await routing(landing.id, small);
    expect(why.rule_id).toBe(rules[1].id);
    expect(why.considered.find((c) => c.rule_id === rules[0].id)).toMatchObject({ reason: 'filter', filter: big });
    const fit = await lead(landing.id, { extra: { chauffage: 'FIOUL', surface: 120 } });
    await route(fit, '2026-11-23T09:00:00Z');
    expect((await routing(landing.id, fit)).rule_id).toBe(rules[0].id);
    const facebook = await lead(landing.id, { source: 'facebook', extra: { chauffage: 'Électrique' } });
    expect(await route(facebook, '2026-11-23T09:00:00Z')).toBe('unmatched');
    expect((await routing(landing.id, facebook)).considered.filter((c) => c.reason !== 'landing').map((c) => [c.reason, c.filter])).toEqual([
      ['filter', gas],
      ['filter', google],
    ]);
  });
});

describe('exclusive and shared leads', () => {
  it('shares a lead with up to max_buyers customers in one go, each sale counted, reported and mailed', async () => {
    const shared = { exclusive: false };
    const { landing, rules } = await setup(4, [
      { ...shared, priority: 1 },
      { ...shared, priority: 2 },
      { ...shared, priority: 3 },
      { ...shared, priority: 4 },
    ]);
    // R2's customer also owns R1's: a second rule of one customer is skipped.
    await setRule(rules[1].id, { customer_id: rules[0].customer_id });
    await server.ctx.db.query('UPDATE landings SET max_buyers = 2 WHERE id = $1', [landing.id]);
    const id = await lead(landing.id);
    expect(await route(id, '2026-11-23T09:00:00Z')).toBe('delivered');
    const why = await routing(landing.id, id);
    expect(why.buyers.map((b) => b.rule_id)).toEqual([rules[0].id, rules[2].id]);
    expect(why).toMatchObject({ rule_id: rules[2].id, customer_name: rules[2].customer_name });
    expect(why.considered.filter((c) => c.reason !== 'landing').map((c) => [c.rule_name, c.reason])).toEqual([
      ['R1', null],
      ['R2', 'same_customer'],
      ['R3', null],
      ['R4', 'max_buyers'],
    ]);
    const sales = await salesOf(id);
    expect(sales.map((s) => [s.rule_id, s.channel, s.price_cents, s.sold_at.toISOString()])).toEqual([
      [rules[0].id, 'live', 0, '2026-11-23T09:00:00.000Z'],
      [rules[2].id, 'live', 0, '2026-11-23T09:00:00.000Z'],
    ]);
    const { rows: row } = await server.ctx.db.query('SELECT sold_to, rapport_id FROM leads WHERE id = $1', [id]);
    expect(row[0]).toEqual({ sold_to: rules[2].customer_name, rapport_id: sales[1].report_id });
    const { rows: counts } = await server.ctx.db.query<{ rule_id: number; count: number }>(
      'SELECT rule_id, count FROM reports WHERE rule_id = ANY($1::int[]) ORDER BY rule_id',
      [rules.map((r) => r.id)],
    );
    expect(counts).toEqual([
      { rule_id: rules[0].id, count: 1 },
      { rule_id: rules[2].id, count: 1 },
    ]);
    // Both customers are mailed, each for its own report.
    await until(
      async () => (await server.ctx.db.query('SELECT DISTINCT report_id FROM deliveries WHERE lead_id = $1 AND status = $2', [id, 'sent'])).rows.length === 2,
      30_000,
      'both mails',
    );
  });

  it('gives a lead whose first open rule is exclusive to it alone', async () => {
    const { landing, rules } = await setup(3, [{ priority: 1 }, { exclusive: false }, {}]);
    await server.ctx.db.query('UPDATE landings SET max_buyers = 3 WHERE id = $1', [landing.id]);
    const id = await lead(landing.id);
    await route(id, '2026-11-23T09:00:00Z');
    expect(await reasons(landing.id, id)).toEqual([
      ['R1', null],
      ['R2', 'exclusive_elsewhere'],
      ['R3', 'lost'],
    ]);
    expect((await salesOf(id)).map((s) => s.rule_id)).toEqual([rules[0].id]);
    // The exclusive rule full: the lead is shared by the other non-exclusive rules, never the exclusive R3.
    await setRule(rules[0].id, { cap_hour: 1 });
    await setRule(rules[2].id, { priority: 9 });
    const next = await lead(landing.id);
    await route(next, '2026-11-23T09:30:00Z');
    expect(await reasons(landing.id, next)).toEqual([
      ['R2', null],
      ['R3', 'lost'],
      ['R1', 'cap_hour'],
    ]);
  });
});

describe('dedupe by person', () => {
  it('never sells a customer the same phone or email within its dedupe days, live or by export', async () => {
    const { landing, rules } = await setup(2, [{ priority: 1 }, { priority: 2 }]);
    const [a, b] = rules;
    await server.ctx.db.query('UPDATE customers SET dedupe_days = 2 WHERE id = $1', [a.customer_id]);
    const first = await lead(landing.id, { telephone: '+33 6 11 22 33 44', email: 'Jean@Example.fr' });
    await route(first, '2026-11-23T09:00:00Z');
    expect((await salesOf(first))[0]).toMatchObject({ rule_id: a.id, phone: '0611223344' });
    // The same person by phone, then by email: A passes, B buys.
    const samePhone = await lead(landing.id, { telephone: '06 11 22 33 44' });
    await route(samePhone, '2026-11-24T09:00:00Z');
    expect(await reasons(landing.id, samePhone)).toEqual([
      ['R2', null],
      ['R1', 'already_sold_to_customer'],
    ]);
    const sameEmail = await lead(landing.id, { email: ' jean@example.FR ' });
    await route(sameEmail, '2026-11-25T08:59:00Z');
    expect((await routing(landing.id, sameEmail)).considered.find((c) => c.rule_id === a.id)?.reason).toBe('already_sold_to_customer');
    // Two days (48 hours) later A may buy the person again.
    const later = await lead(landing.id, { telephone: '0611223344' });
    await route(later, '2026-11-25T09:00:00Z');
    expect((await routing(landing.id, later)).rule_id).toBe(a.id);
    // An export sale to B (dedupe 30 days by default) counts the same.
    const { rows } = await server.ctx.db.query<{ id: number }>('INSERT INTO leads (landing_id, data) VALUES ($1, $2) RETURNING id', [landing.id, '{}']);
    await server.ctx.db.query(
      `INSERT INTO lead_sales (lead_id, customer_id, channel, phone, email, sold_at) VALUES ($1, $2, 'export', '0699999999', NULL, '2026-11-20T09:00:00Z')`,
      [rows[0].id, b.customer_id],
    );
    await setRule(a.id, { active: false });
    const exported = await lead(landing.id, { telephone: '0699999999' });
    expect(await route(exported, '2026-11-26T09:00:00Z')).toBe('unmatched');
    expect(await reasons(landing.id, exported)).toEqual([
      ['R1', 'paused'],
      ['R2', 'already_sold_to_customer'],
    ]);
    // dedupe_days 0: no dedupe.
    await server.ctx.db.query('UPDATE customers SET dedupe_days = 0 WHERE id = $1', [b.customer_id]);
    expect(await route(exported, '2026-11-26T09:00:00Z')).toBe('delivered');
  });
});
