// Issue 25's rule fields through the API: caps per hour, week and month, priority, weight, filters
// checked against every landing of the rule, exclusivity; the landings' max_buyers, the customers'
// dedupe_days; and the list's fill per window, as the engine counts it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '../../src/api/customers/contract';
import type { Landing, LandingColumn } from '../../src/api/landings/contract';
import type { Rule, RulesTodayResponse } from '../../src/api/rules/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';
import { createCustomer, everyDay } from './lives-support';

let server: TestServer;
let token: string;
let customerId: number;
/** Every type of column. */
let full: { id: number; key: string };
/** Text columns only, and 'chauffage' as free text: what full's filters do not all fit. */
let plain: { id: number; key: string };

const fullColumns: LandingColumn[] = [
  { key: 'nom', label: 'Nom', type: 'text', required: true },
  { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
  { key: 'email', label: 'Email', type: 'email', required: false },
  { key: 'code_postal', label: 'Code postal', type: 'postal_code', required: true },
  { key: 'chauffage', label: 'Chauffage', type: 'select', required: false, options: ['Gaz', 'Fioul', 'Électrique'] },
  { key: 'surface', label: 'Surface', type: 'number', required: false },
  { key: 'naissance', label: 'Date de naissance', type: 'date', required: false },
];
const plainColumns: LandingColumn[] = [
  { key: 'nom', label: 'Nom', type: 'text', required: true },
  { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
  { key: 'chauffage', label: 'Chauffage', type: 'text', required: false },
];

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  customerId = await createCustomer(server, token);
  full = await createLanding(server.ctx.db, { name: 'PAC complète', columns: fullColumns });
  plain = await createLanding(server.ctx.db, { name: 'PV simple', columns: plainColumns });
});
afterAll(() => server.close());

const call = (method: string, path: string, body?: unknown, as = token) => server.request(method, path, { body, token: as });
/** SPEC's payload (docs/product.md §3), without any field of issue 25. */
const specPayload = (extra: Record<string, unknown> = {}) => ({
  name: 'Gard matin',
  customer_id: customerId,
  landings: [full.id],
  zip: ['30'],
  hours: { start: '08:00', end: '20:00' },
  leads_number: 20,
  ...everyDay,
  ...extra,
});
const create = async (extra: Record<string, unknown> = {}) => {
  const res = await call('POST', '/api/customers/rules', specPayload(extra));
  return { status: res.status, body: await json<{ data: Rule; errors: Record<string, string> }>(res) };
};

describe('rule fields', () => {
  it("takes SPEC's payload unchanged and answers the defaults that reproduce today's rule", async () => {
    const { status, body } = await create();
    expect(status).toBe(201);
    expect(body.data).toMatchObject({
      caps: { hour: null, week: null, month: null },
      priority: 5,
      weight: null,
      filters: [],
      exclusive: true,
      // Not counted: the rule caps no window.
      sold: { hour: null, week: null, month: null },
    });
  });

  it('keeps every field through POST, GET and a PATCH of some of them', async () => {
    const filters = [
      { column: 'chauffage', op: 'in', value: ['gaz', 'Fioul'] },
      { column: 'surface', op: 'between', value: [80, 200] },
      { column: 'naissance', op: 'age_between', value: [30, 70] },
      { column: 'naissance', op: 'gte', value: '1950-01-01' },
      { column: 'utm_source', op: 'neq', value: 'taboola' },
    ];
    const { status, body } = await create({ caps: { hour: 5, week: 70, month: 250 }, priority: 2, weight: 300, filters, exclusive: false });
    expect(status).toBe(201);
    const id = body.data.id;
    const listed = (await json<{ data: Rule[] }>(await call('GET', `/api/customers/rules?customer_id=${customerId}`))).data.find((r) => r.id === id)!;
    expect(listed).toMatchObject({ caps: { hour: 5, week: 70, month: 250 }, priority: 2, weight: 300, filters, exclusive: false });

    // Only the windows sent change; null lifts a cap.
    const patched = await call('PATCH', `/api/customers/rules/${id}`, { caps: { hour: null }, priority: 9, weight: null, exclusive: true });
    expect(patched.status).toBe(200);
    expect((await json<{ data: Rule }>(patched)).data).toMatchObject({
      caps: { hour: null, week: 70, month: 250 },
      priority: 9,
      weight: null,
      filters,
      exclusive: true,
    });
  });

  it('accepts a week cap below the day cap (the tighter cap binds) and filters on lead columns of any landing', async () => {
    const { status, body } = await create({
      landings: [full.id, plain.id],
      leads_number: 50,
      caps: { week: 10 },
      filters: [
        { column: 'source', op: 'eq', value: 'Facebook' },
        { column: 'utm_campaign', op: 'not_in', value: ['test', 'essai'] },
        { column: 'nom', op: 'neq', value: 'Test' },
      ],
    });
    expect(status).toBe(201);
    expect(body.data.caps).toEqual({ hour: null, week: 10, month: null });
  });

  const refused: [string, Record<string, unknown>, string][] = [
    ['an hour cap of 0', { caps: { hour: 0 } }, 'caps.hour'],
    ['a week cap not whole', { caps: { week: 1.5 } }, 'caps.week'],
    ['a month cap as text', { caps: { month: 'cent' } }, 'caps.month'],
    ['a month cap beyond a million', { caps: { month: 1_000_001 } }, 'caps.month'],
    ['priority 0', { priority: 0 }, 'priority'],
    ['priority 10', { priority: 10 }, 'priority'],
    ['weight 0', { weight: 0 }, 'weight'],
    ['weight 10 001', { weight: 10_001 }, 'weight'],
    ['exclusive as text', { exclusive: 'oui' }, 'exclusive'],
    ['filters not a list', { filters: { column: 'nom' } }, 'filters'],
    ['an unknown operator', { filters: [{ column: 'nom', op: 'like', value: 'a' }] }, 'filters.0.op'],
    ['a column no landing has', { filters: [{ column: 'revenu', op: 'eq', value: 'x' }] }, 'filters.0'],
    ['gte on a text column', { filters: [{ column: 'nom', op: 'gte', value: 'a' }] }, 'filters.0'],
    ['eq on a number column', { filters: [{ column: 'surface', op: 'eq', value: 100 }] }, 'filters.0'],
    ['age_between on a number column', { filters: [{ column: 'surface', op: 'age_between', value: [1, 2] }] }, 'filters.0'],
    ['in on a date column', { filters: [{ column: 'naissance', op: 'in', value: ['2000-01-01'] }] }, 'filters.0'],
    ['a number that is not one', { filters: [{ column: 'surface', op: 'gte', value: 'grande' }] }, 'filters.0'],
    ['a number written as text', { filters: [{ column: 'surface', op: 'gte', value: '80' }] }, 'filters.0'],
    ['a date that does not exist', { filters: [{ column: 'naissance', op: 'lte', value: '2024-02-30' }] }, 'filters.0'],
    ['a date in French order', { filters: [{ column: 'naissance', op: 'lte', value: '01/02/2024' }] }, 'filters.0'],
    ['ages not whole', { filters: [{ column: 'naissance', op: 'age_between', value: [30.5, 40] }] }, 'filters.0'],
    ['a pair reversed', { filters: [{ column: 'surface', op: 'between', value: [200, 80] }] }, 'filters.0'],
    ['a single value for between', { filters: [{ column: 'surface', op: 'between', value: 80 }] }, 'filters.0.value'],
    ['an empty list', { filters: [{ column: 'chauffage', op: 'in', value: [] }] }, 'filters.0.value'],
    ['a list for eq', { filters: [{ column: 'chauffage', op: 'eq', value: ['Gaz'] }] }, 'filters.0.value'],
    ['a choice a select column lacks', { filters: [{ column: 'chauffage', op: 'eq', value: 'Bois' }] }, 'filters.0'],
  ];
  it.each(refused)('refuses %s (422 naming it)', async (_, extra, field) => {
    const { status, body } = await create(extra);
    expect(status).toBe(422);
    expect(Object.keys(body.errors)).toContain(field);
    expect(body.errors[field]).toMatch(/[a-zé]/);
  });

  it('names the second filter and the landing that lacks its column, when the rule has two landings', async () => {
    const { status, body } = await create({
      landings: [full.id, plain.id],
      filters: [
        { column: 'nom', op: 'eq', value: 'Martin' },
        { column: 'surface', op: 'gte', value: 50 },
      ],
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ 'filters.1': expect.stringContaining('PV simple') });
    expect(body.errors['filters.1']).toMatch(/^Filtre 2 — /);
  });

  it('refuses a filter whose column has another type on one of the landings (select on one, text on the other)', async () => {
    // 'in' fits both; a choice outside full's options does not fit full.
    expect((await create({ landings: [full.id, plain.id], filters: [{ column: 'chauffage', op: 'in', value: ['Gaz'] }] })).status).toBe(201);
    const { status, body } = await create({ landings: [plain.id, full.id], filters: [{ column: 'chauffage', op: 'eq', value: 'Bois' }] });
    expect(status).toBe(422);
    expect(body.errors['filters.0']).toContain('PAC complète');
  });

  it('checks the filters kept against new landings, and new filters against the landings kept, on PATCH', async () => {
    const { body } = await create({ filters: [{ column: 'surface', op: 'lte', value: 300 }] });
    const id = body.data.id;
    const moved = await call('PATCH', `/api/customers/rules/${id}`, { landings: [plain.id] });
    expect(moved.status).toBe(422);
    expect(Object.keys((await json<{ errors: Record<string, string> }>(moved)).errors)).toEqual(['filters.0']);
    const wrong = await call('PATCH', `/api/customers/rules/${id}`, { filters: [{ column: 'naissance', op: 'between', value: ['2000-01-01', '1990-01-01'] }] });
    expect(wrong.status).toBe(422);
    // Nothing changed by the refusals; both sent together fit.
    const both = await call('PATCH', `/api/customers/rules/${id}`, { landings: [plain.id], filters: [] });
    expect(both.status).toBe(200);
    expect((await json<{ data: Rule }>(both)).data).toMatchObject({ landings: [{ id: plain.id }], filters: [] });
  });

  it('refuses the same bad fields on PATCH', async () => {
    const { body } = await create();
    const res = await call('PATCH', `/api/customers/rules/${body.data.id}`, { caps: { week: -3 }, priority: 'haute', weight: 20_000 });
    expect(res.status).toBe(422);
    expect(Object.keys((await json<{ errors: Record<string, string> }>(res)).errors).sort()).toEqual(['caps.week', 'priority', 'weight']);
  });
});

describe('landings max_buyers', () => {
  const landingOf = async (id: number) => (await json<{ data: Landing }>(await call('GET', `/api/landings/${id}`))).data;

  it('answers 1 by default, in the list and alone', async () => {
    expect((await landingOf(full.id)).max_buyers).toBe(1);
    const list = (await json<{ data: Landing[] }>(await call('GET', '/api/landings'))).data;
    expect(list.find((l) => l.id === full.id)?.max_buyers).toBe(1);
  });

  it('is set by PATCH (admin) without touching the thank-you URL, and the reverse', async () => {
    expect((await call('PATCH', `/api/landings/${full.id}`, { thank_you_url: 'https://exemple.fr/merci' })).status).toBe(200);
    const res = await call('PATCH', `/api/landings/${full.id}`, { max_buyers: 3 });
    expect(res.status).toBe(200);
    expect((await json<{ data: Landing }>(res)).data).toMatchObject({ max_buyers: 3, thank_you_url: 'https://exemple.fr/merci' });
    await call('PATCH', `/api/landings/${full.id}`, { thank_you_url: null });
    expect(await landingOf(full.id)).toMatchObject({ max_buyers: 3, thank_you_url: null });
    const list = (await json<{ data: Landing[] }>(await call('GET', '/api/landings'))).data;
    expect(list.find((l) => l.id === full.id)?.max_buyers).toBe(3);
  });

  it.each([[0], [6], [2.5], ['2'], [null]])('refuses max_buyers %j (422)', async (value) => {
    const res = await call('PATCH', `/api/landings/${plain.id}`, { max_buyers: value });
    expect(res.status).toBe(422);
    expect(Object.keys((await json<{ errors: Record<string, string> }>(res)).errors)).toEqual(['max_buyers']);
  });

  it('refuses an empty PATCH and a staff user', async () => {
    expect((await call('PATCH', `/api/landings/${plain.id}`, {})).status).toBe(422);
    const staff = await normalUserToken(server);
    expect((await call('PATCH', `/api/landings/${plain.id}`, { max_buyers: 2 }, staff)).status).toBe(403);
    expect((await landingOf(plain.id)).max_buyers).toBe(1);
  });
});

describe('customers dedupe_days', () => {
  const customerCall = async (method: string, path: string, body: unknown) => {
    const res = await call(method, path, body);
    return { status: res.status, body: await json<{ data: Customer; errors: Record<string, string> }>(res) };
  };

  it('defaults to 30 days, is set at creation and by PATCH, and GET answers it', async () => {
    const made = await customerCall('POST', '/api/customers', { name: 'Sans doublon', email: `dedupe-${Date.now()}@example.fr` });
    expect(made.status).toBe(201);
    expect(made.body.data.dedupe_days).toBe(30);
    const zero = await customerCall('POST', '/api/customers', { name: 'Toujours', email: `zero-${Date.now()}@example.fr`, dedupe_days: 0 });
    expect(zero.body.data.dedupe_days).toBe(0);
    const patched = await customerCall('PATCH', `/api/customers/${made.body.data.id}`, { dedupe_days: 365 });
    expect(patched.status).toBe(200);
    expect(patched.body.data.dedupe_days).toBe(365);
    // A PATCH of another field keeps it.
    await customerCall('PATCH', `/api/customers/${made.body.data.id}`, { name: 'Sans doublon (renommé)' });
    const listed = (await json<{ data: Customer[] }>(await call('GET', '/api/customers'))).data.find((c) => c.id === made.body.data.id);
    expect(listed?.dedupe_days).toBe(365);
  });

  it.each([[-1], [366], [1.5], ['30']])('refuses dedupe_days %j (422), at creation and by PATCH', async (value) => {
    const made = await customerCall('POST', '/api/customers', { name: 'Refus', email: `refus-${Date.now()}-${Math.random()}@example.fr`, dedupe_days: value });
    expect(made.status).toBe(422);
    expect(Object.keys(made.body.errors)).toEqual(['dedupe_days']);
    const patched = await customerCall('PATCH', `/api/customers/${customerId}`, { dedupe_days: value });
    expect(patched.status).toBe(422);
    expect(Object.keys(patched.body.errors)).toEqual(['dedupe_days']);
  });
});

describe('fill per window', () => {
  /** The Paris wall clock of a moment, read independently of the server: 'YYYY-MM-DD', hour, ISO weekday 1–7. */
  const paris = (at: Date) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Paris',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        weekday: 'short',
        hourCycle: 'h23',
      })
        .formatToParts(at)
        .map((p) => [p.type, p.value]),
    );
    const day = `${parts.year}-${parts.month}-${parts.day}`;
    return { day, hour: `${day} ${parts.hour}`, isoWeekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday) + 1 };
  };
  const mondayOf = (day: string, isoWeekday: number) => {
    const d = new Date(`${day}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() - (isoWeekday - 1));
    return d.toISOString().slice(0, 10);
  };

  it("shows the engine's window counts of each rule's capped windows (Paris hour, ISO week, month), for the list and the live fills", async () => {
    const a = (await create({ caps: { hour: 5, week: 20, month: 100 } })).body.data;
    const b = (await create({ name: 'Horaire', caps: { hour: 2 } })).body.data;
    const uncapped = (await create({ name: 'Sans plafond' })).body.data;
    const leadIds = await insertLeads(server.ctx.db, full.id, [{ status: 'extracted', telephone: '0612345678', code_postal: '30000' }]);
    const now = new Date();
    const minutesAgo = [0, 1, 20, 59, 61, 150, 60 * 24, 60 * 24 * 3, 60 * 24 * 6, 60 * 24 * 8, 60 * 24 * 20, 60 * 24 * 32, 60 * 24 * 45];
    const sales = [
      ...minutesAgo.map((m) => ({ rule: a.id, at: new Date(now.getTime() - m * 60_000) })),
      ...minutesAgo.slice(0, 6).map((m) => ({ rule: b.id, at: new Date(now.getTime() - m * 60_000) })),
      { rule: uncapped.id, at: now },
    ];
    await server.ctx.db.query(
      `INSERT INTO lead_sales (lead_id, customer_id, rule_id, channel, sold_at)
       SELECT $1, $2, t.rule, 'live', t.at FROM unnest($3::int[], $4::timestamptz[]) AS t(rule, at)`,
      [leadIds[0], customerId, sales.map((s) => s.rule), sales.map((s) => s.at.toISOString())],
    );
    // An export sale without a rule counts in no rule's window.
    await server.ctx.db.query(`INSERT INTO lead_sales (lead_id, customer_id, channel, sold_at) VALUES ($1, $2, 'export', now())`, [leadIds[0], customerId]);
    // The engine's window counters, as they stand after these sales (as migration 087 starts them).
    await server.ctx.db.query(
      `INSERT INTO rule_windows (rule_id, span, start, count)
       SELECT s.rule_id, w.span, w.start, count(*) FROM lead_sales s
        CROSS JOIN LATERAL (VALUES ('hour', date_trunc('hour', s.sold_at AT TIME ZONE 'Europe/Paris')),
                                   ('week', date_trunc('week', s.sold_at AT TIME ZONE 'Europe/Paris')),
                                   ('month', date_trunc('month', s.sold_at AT TIME ZONE 'Europe/Paris'))) AS w (span, start)
        WHERE s.rule_id IS NOT NULL GROUP BY s.rule_id, w.span, w.start`,
    );

    const here = paris(now);
    const monday = mondayOf(here.day, here.isoWeekday);
    const expected = (rule: number) => {
      const mine = sales.filter((s) => s.rule === rule).map((s) => paris(s.at));
      return {
        hour: mine.filter((p) => p.hour === here.hour).length,
        week: mine.filter((p) => p.day >= monday && p.day <= here.day).length,
        month: mine.filter((p) => p.day.slice(0, 7) === here.day.slice(0, 7)).length,
      };
    };
    // Sanity of the model: the sale of this very minute is in every window.
    expect(expected(a.id).hour).toBeGreaterThanOrEqual(1);

    const listed = (await json<{ data: Rule[] }>(await call('GET', `/api/customers/rules?customer_id=${customerId}`))).data;
    expect(listed.find((r) => r.id === a.id)?.sold).toEqual(expected(a.id));
    // Only the capped windows are counted.
    expect(listed.find((r) => r.id === b.id)?.sold).toEqual({ hour: expected(b.id).hour, week: null, month: null });
    expect(listed.find((r) => r.id === uncapped.id)?.sold).toEqual({ hour: null, week: null, month: null });
    const live = await json<RulesTodayResponse>(await call('GET', `/api/customers/rules/today?customer_id=${customerId}`));
    expect(live.data.find((r) => r.id === a.id)?.sold).toEqual(expected(a.id));
    expect(live.data.find((r) => r.id === b.id)?.sold).toEqual({ hour: expected(b.id).hour, week: null, month: null });
  });
});
