import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LandingColumn } from '../../src/api/landings/contract';
import { ruleSimulateRequest, type Rule, type RuleSimulation } from '../../src/api/rules/contract';
import { routeLeads } from '../../server/services/delivery/engine';
import { parisClock } from '../../server/services/delivery/paris-time';
import { departementFor } from '../../server/services/geo';
import { replay } from '../../server/services/delivery/replay';
import type { ReplayLeads } from '../../server/services/delivery/replay-leads';
import { keptWorlds, loadWorld, purgeWorldChanges } from '../../server/services/delivery/replay-world';
import { simulateRule } from '../../server/services/delivery/simulate';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';
import { createCustomer, createRule, everyDay } from './lives-support';
import { until } from '../support/until';

// The what-if simulation of rules (issue 27): the leads of the last days, sold by the live engine
// (routed at their arrival on the three days before today, posted to the intake today), replayed
// through the same judge. Two customers: 'R1' (priority 2, two a day, 1 € a lead, a person bought
// once in 30 days) and 'R2' (priority 3, gas heating only, 2 €). The third customer only drafts.
let server: TestServer;
let token: string;
let landing: { id: number; key: string };
let r1: Rule;
let r2: Rule;
let c3: number;
/** Every lead of the landing, in arrival order. */
let leads: Array<{ id: number; at: Date; chauffage: string }>;

const DAYS = 4;
const today = parisClock(new Date()).day;
const dayBefore = (n: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
};

/** `days` null: not sent. */
const simulate = async (rule: Record<string, unknown>, days: number | null = DAYS) =>
  server.request('POST', '/api/customers/rules/simulate', { token, body: { rule, ...(days === null ? {} : { days }) } });
const simulation = async (rule: Record<string, unknown>) => {
  const res = await simulate(rule);
  expect(res.status).toBe(200);
  return (await json<{ data: RuleSimulation }>(res)).data;
};
/** A replayed lead's person (phone) and its keys in the rules' targets ('' everywhere, its postal code, its department), read from the columns. */
const leadOf = (columns: ReplayLeads, id: number) => {
  const n = columns.id.indexOf(id);
  const zip = (i: number) => (i < 0 ? [] : [columns.zips[i]]);
  const phone = [...columns.persons.phones].find(([, i]) => i === columns.phone[n]);
  return { phone: phone?.[0] ?? null, keys: ['', ...zip(columns.postalCode[n]), ...zip(columns.departement[n])] };
};
const recordedSales = async () =>
  (
    await server.ctx.db.query<{ lead_id: number; rule_id: number; customer_id: number; price_cents: number; sold_at: Date }>(
      `SELECT s.lead_id, s.rule_id, s.customer_id, s.price_cents, s.sold_at FROM lead_sales s JOIN leads l ON l.id = s.lead_id
        WHERE l.landing_id = $1 AND s.channel = 'live' ORDER BY s.sold_at, s.id`,
      [landing.id],
    )
  ).rows;
const counts = async () =>
  (
    await server.ctx.db.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM lead_sales) AS sales, (SELECT count(*)::int FROM lead_routings) AS routings,
              (SELECT count(*)::int FROM rules) AS rules, (SELECT count(*)::int FROM reports) AS reports,
              (SELECT count(*)::int FROM rule_windows) AS windows, (SELECT count(*)::int FROM customer_months) AS months`,
    )
  ).rows[0];

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db);
  const c1 = await createCustomer(server, token, { default_price_cents: 100, dedupe_days: 30 });
  const c2 = await createCustomer(server, token, { default_price_cents: 200, dedupe_days: 0 });
  c3 = await createCustomer(server, token, { name: 'Tiers', default_price_cents: 300, dedupe_days: 0 });
  r1 = await createRule(server, token, { name: 'R1', customer_id: c1, landings: [landing.id], priority: 2, leads_number: 2 });
  r2 = await createRule(server, token, {
    name: 'R2',
    customer_id: c2,
    landings: [landing.id],
    priority: 3,
    leads_number: 100,
    filters: [{ column: 'chauffage', op: 'eq', value: 'Gaz' }],
  });

  // Three past days, four leads each at 09:00–12:00 UTC, routed by the engine at their arrival;
  // the second day's first lead is the first day's person again (R1's customer bought it).
  leads = [];
  for (let n = DAYS - 1; n >= 1; n--)
    for (let h = 0; h < 4; h++) {
      const at = new Date(`${dayBefore(n)}T${String(9 + h).padStart(2, '0')}:00:00Z`);
      const chauffage = h % 2 === 0 ? 'Gaz' : 'Fioul';
      const telephone = n === DAYS - 2 && h === 0 ? `06000${DAYS - 1}0000` : `06000${n}${h}000`;
      const [id] = await insertLeads(server.ctx.db, landing.id, [{ code_postal: '30900', telephone, created_at: at.toISOString(), extra: { chauffage } }]);
      await routeLeads(server.ctx, { leads: [id], offeredAt: at, now: at });
      leads.push({ id, at, chauffage });
    }
  // Today, through the intake.
  for (const chauffage of ['Gaz', 'Fioul']) {
    const res = await server.request('POST', `/api/intake/${landing.key}`, {
      body: { nom: 'Martin', telephone: `07${String(leads.length).padStart(8, '1')}`, code_postal: '30900', chauffage },
    });
    expect(res.status).toBe(201);
    const id = (await json<{ data: { id: number } }>(res)).data.id;
    const { rows } = await server.ctx.db.query<{ created_at: Date }>('SELECT created_at FROM leads WHERE id = $1', [id]);
    leads.push({ id, at: rows[0].created_at, chauffage });
  }
  await until(
    async () =>
      (await server.ctx.db.query('SELECT 1 FROM lead_routings WHERE lead_id = ANY($1::bigint[])', [leads.map((l) => l.id)])).rows.length === leads.length,
    30_000,
    "the intakes' routing",
  );
});
afterAll(() => server.close());

describe('POST /api/customers/rules/simulate', () => {
  it('replays the past as the engine sold it: without a change, every sale is the recorded one, rule and price', async () => {
    const recorded = await recordedSales();
    // The scenario sells to both rules, and leaves leads unsold.
    expect(new Set(recorded.map((s) => s.rule_id))).toEqual(new Set([r1.id, r2.id]));
    expect(recorded.length).toBeLessThan(leads.length);

    const { world, rules } = await loadWorld(server.ctx.db, { landings: [landing.id], firstDay: dayBefore(DAYS - 1) });
    expect(Array.from(world.leads.id)).toEqual(leads.map((l) => l.id));
    const replayed = replay(world, rules).sales.map((s) => ({
      lead_id: world.leads.id[s.lead],
      rule_id: s.rule_id,
      customer_id: s.customer_id,
      price_cents: s.price_cents,
    }));
    expect(replayed).toEqual(recorded.map(({ sold_at: _, ...sale }) => sale));

    // Through the API: an edit that changes nothing takes nothing from anyone and changes no sale.
    const same = await simulation({ id: r1.id, changes: {} });
    const mine = recorded.filter((s) => s.rule_id === r1.id);
    const sold = new Set(recorded.map((s) => s.lead_id));
    expect(same).toMatchObject({
      days: DAYS,
      leads_considered: leads.length,
      taken: mine.length,
      taken_from: [],
      unsold_before: leads.length - sold.size,
      unsold_after: leads.length - sold.size,
      revenue_delta_cents: 0,
    });
    // R1's two a day: full at its second sale of each past day.
    expect(same.by_day).toEqual(
      [3, 2, 1, 0].map((n) => {
        const day = mine.filter((s) => parisClock(s.sold_at).day === dayBefore(n));
        return { date: dayBefore(n), taken: day.length, cap_reached_at: day.length === 2 ? parisClock(day[1].sold_at).label.slice(11) : null };
      }),
    );
  });

  it('a new rule served first takes the leads from the rules that had them (taken_from), at its price', async () => {
    const before = await counts();
    const recorded = await recordedSales();
    const result = await simulation({ name: 'Essai', customer_id: c3, landings: [landing.id], priority: 1, leads_number: 100, ...everyDay });
    const of = (rule: Rule) => recorded.filter((s) => s.rule_id === rule.id).length;
    expect(result).toMatchObject({
      leads_considered: leads.length,
      taken: leads.length,
      unsold_after: 0,
      revenue_delta_cents: leads.length * 300 - recorded.reduce((sum, s) => sum + s.price_cents, 0),
    });
    expect(result.taken_from).toEqual(
      [
        { rule: { id: r1.id, name: 'R1' }, customer: { id: r1.customer_id, name: r1.customer_name }, leads: of(r1) },
        { rule: { id: r2.id, name: 'R2' }, customer: { id: r2.customer_id, name: r2.customer_name }, leads: of(r2) },
      ].sort((a, b) => b.leads - a.leads || a.rule.id - b.rule.id),
    );
    expect(result.by_day.map((d) => d.taken)).toEqual([4, 4, 4, 2]);
    // Nothing written, nothing delivered.
    expect(await counts()).toEqual(before);
    expect(await recordedSales()).toEqual(recorded);
  });

  it('deleting a rule frees the leads no other rule takes (unsold_after)', async () => {
    const recorded = await recordedSales();
    const result = await simulation({ id: r1.id, delete: true });
    expect(result).toMatchObject({
      taken: 0,
      taken_from: [],
      unsold_before: leads.length - new Set(recorded.map((s) => s.lead_id)).size,
      // R2 takes every gas heating, nobody the others.
      unsold_after: leads.filter((l) => l.chauffage !== 'Gaz').length,
      revenue_delta_cents: leads.filter((l) => l.chauffage === 'Gaz').length * 200 - recorded.reduce((sum, s) => sum + s.price_cents, 0),
    });
  });

  it('a lower day cap stops the rule at its first sale of each day (cap_reached_at)', async () => {
    const result = await simulation({ id: r1.id, changes: { leads_number: 1 } });
    // The first lead of each day, but the second day's first person, bought by R1's customer the day before.
    const first = (n: number) => leads.filter((l) => parisClock(l.at).day === dayBefore(n))[n === DAYS - 2 ? 1 : 0];
    expect(result.by_day).toEqual([3, 2, 1, 0].map((n) => ({ date: dayBefore(n), taken: 1, cap_reached_at: parisClock(first(n).at).label.slice(11) })));
    expect(result.taken_from).toEqual([]);
  });

  it('refuses a bad draft in French naming the field (422), an unknown rule (404); 30 days by default', async () => {
    const refused = async (body: Record<string, unknown>, days = DAYS) => {
      const res = await simulate(body, days);
      expect(res.status).toBe(422);
      return (await json<{ errors: Record<string, string> }>(res)).errors;
    };
    expect(await refused({ name: '', customer_id: c3, landings: [landing.id] })).toEqual({ 'rule.name': 'Nom requis' });
    expect(await refused({ name: 'Essai', customer_id: c3, landings: [landing.id] }, 91)).toEqual({ days: 'Nombre de jours entre 1 et 90' });
    expect(await refused({ name: 'Essai', customer_id: 999_999, landings: [999_998] })).toEqual({
      'rule.customer_id': 'Client inconnu',
      'rule.landings': 'Landing inconnue : 999998',
    });
    expect(await refused({ id: r1.id, changes: { caps: { hour: 0 } } })).toEqual({ 'rule.changes.caps.hour': 'Plafond entre 1 et 1 000 000, ou vide' });
    expect(await refused({ id: r1.id, changes: { filters: [{ column: 'inconnue', op: 'eq', value: 'x' }] } })).toHaveProperty(['rule.changes.filters.0']);
    expect(await refused({ id: 'un', delete: true })).toEqual({ 'rule.id': 'Règle inconnue' });

    const unknown = await simulate({ id: 999_999, delete: true });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ message: 'Règle introuvable' });

    const defaults = await simulate({ id: r2.id, changes: {} }, null);
    expect(defaults.status).toBe(200);
    const { data } = await json<{ data: RuleSimulation }>(defaults);
    expect(data.days).toBe(30);
    expect(data.by_day).toHaveLength(30);
    expect(data.by_day[29].date).toBe(today);
  });

  it("reads each landing's own form keys, and the postal codes only when a rule names one", async () => {
    const columns: LandingColumn[] = [
      { key: 'nom', label: 'Nom', type: 'text', required: true },
      { key: 'tel', label: 'Tél.', type: 'phone', required: true },
      { key: 'cp', label: 'CP', type: 'postal_code', required: true },
    ];
    const other = await createLanding(server.ctx.db, { columns });
    const [id] = await insertLeads(server.ctx.db, other.id, [
      { code_postal: '75011', created_at: `${dayBefore(1)}T15:00:00Z`, extra: { tel: '+33 6 00 01 10 00', cp: '75011' } },
    ]);
    const load = async (extra: Awaited<ReturnType<typeof loadWorld>>['rules']) =>
      loadWorld(server.ctx.db, { landings: [landing.id, other.id], firstDay: dayBefore(DAYS - 1), extra });
    const { world, rules } = await load([]);
    const department = departementFor('75011');
    expect(leadOf(world.leads, id)).toEqual({ phone: '0600011000', keys: ['', department] });
    expect(leadOf(world.leads, leads[0].id)).toEqual({ phone: `06000${DAYS - 1}0000`, keys: ['', departementFor('30900')] });
    const named = await load([{ ...rules[0], id: 999_999, zip: ['75011'] }]);
    expect(leadOf(named.world.leads, id).keys).toEqual(['', '75011', department]);
  });

  it('keeps the world between simulations, brought up to date: after a lead, a sale, a rule or a status changed, each answer that of a fresh read', async () => {
    const draft = { name: 'Essai', customer_id: c3, landings: [landing.id], priority: 1, leads_number: 3, ...everyDay };
    /** The answer through the API (the kept world), that of a fresh read (a copy of the connection: no world kept for it), and the kept world's version. */
    const both = async () => {
      const kept = await simulation(draft);
      const fresh = await simulateRule({ ...server.ctx.db }, ruleSimulateRequest.parse({ rule: draft, days: DAYS }));
      expect(kept).toEqual(fresh);
      return { kept, version: keptWorlds(server.ctx.db).find((w) => w.key === `${landing.id}|${dayBefore(DAYS - 1)}`)!.version };
    };
    const first = await both();

    // A lead through the intake, routed and sold: appended, its sale placed, nothing read again.
    const res = await server.request('POST', `/api/intake/${landing.key}`, {
      body: { nom: 'Martin', telephone: '0712345678', code_postal: '30900', chauffage: 'Gaz' },
    });
    const id = (await json<{ data: { id: number } }>(res)).data.id;
    await until(async () => (await server.ctx.db.query('SELECT 1 FROM lead_routings WHERE lead_id = $1', [id])).rows.length === 1, 30_000, 'the routing');
    const appended = await both();
    expect(appended.kept.leads_considered).toBe(first.kept.leads_considered + 1);
    expect(appended.version).toBeGreaterThan(first.version);

    // An export's sale of a replayed lead (it counts for R1's customer's dedupe), and a rule changed: applied as they come.
    await server.ctx.db.query(
      `INSERT INTO lead_sales (lead_id, customer_id, channel, price_cents, phone, sold_at) VALUES ($1, $2, 'export', 100, '0600090000', now())`,
      [leads[0].id, r1.customer_id],
    );
    const patched = await server.request('PATCH', `/api/customers/rules/${r2.id}`, { token, body: { active: false } });
    expect(patched.status).toBe(200);
    const changed = await both();
    expect(changed.version).toBeGreaterThan(appended.version);
    expect(changed.kept).not.toEqual(appended.kept);

    // A lead not routed yet leaving 'new', a lead's form changed, a sale returned: read again whole.
    const [waiting] = await insertLeads(server.ctx.db, landing.id, [
      { code_postal: '30900', created_at: new Date().toISOString(), extra: { chauffage: 'Gaz' } },
    ]);
    expect((await both()).kept.leads_considered).toBe(appended.kept.leads_considered + 1);
    await server.ctx.db.query("UPDATE leads SET entry_status = 'archived' WHERE id = $1", [waiting]);
    expect((await both()).kept.leads_considered).toBe(appended.kept.leads_considered);
    await server.ctx.db.query(`UPDATE leads SET data = data || '{"chauffage": "Fioul"}' WHERE id = $1`, [leads[0].id]);
    await both();
    await server.ctx.db.query("UPDATE lead_sales SET returned_at = now(), return_reason = 'other' WHERE lead_id = $1 AND channel = 'live'", [leads[1].id]);
    expect((await both()).version).toBe(0);

    // Changes purged before the kept world saw them: read again whole.
    await insertLeads(server.ctx.db, landing.id, [{ code_postal: '30900', created_at: new Date().toISOString(), extra: { chauffage: 'Fioul' } }]);
    // A purge keeps the changes of transactions not older than every one still running (another
    // test file's, on the same PostgreSQL), which a kept world then applies as they come: purged
    // again until every change is gone, the last lead's included.
    let gone = 0;
    await until(
      async () => {
        await server.ctx.db.query("UPDATE world_changes SET created_at = now() - interval '1 hour'");
        gone += await purgeWorldChanges(server.ctx.db);
        return (await server.ctx.db.query('SELECT 1 FROM world_changes')).rows.length === 0;
      },
      10_000,
      'the purge',
    );
    expect(gone).toBeGreaterThan(0);
    const purged = await both();
    expect(purged.version).toBe(0);
    expect(purged.kept.leads_considered).toBe(appended.kept.leads_considered + 1);
  });
});
