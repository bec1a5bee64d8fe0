import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeLeads } from '../../server/services/delivery/engine';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';
import { createCustomer, createRule } from './lives-support';

// Prices and monthly budgets in the live engine (issue 26), and the counters a routing fills.
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const at = '2026-11-23T09:00:00Z';
const route = (leads: number[]) => routeLeads(server.ctx, { leads, offeredAt: new Date(at), now: new Date(at) });
const leadsOf = (landing: number, n: number, first = 0) =>
  insertLeads(
    server.ctx.db,
    landing,
    Array.from({ length: n }, (_, i) => ({ code_postal: '30900', telephone: `06${String(40_000_000 + first + i)}`, created_at: at })),
  );

describe('prices and budgets', () => {
  it('prices each sale at its rule’s price, else its customer’s default, and passes over a customer whose month would pass its budget', async () => {
    const { db } = server.ctx;
    const landing = await createLanding(db);
    const thrifty = await createCustomer(server, token);
    const fallback = await createCustomer(server, token);
    await db.query('UPDATE customers SET default_price_cents = 400, monthly_budget_cents = 1000 WHERE id = $1', [thrifty]);
    await db.query('UPDATE customers SET default_price_cents = 150 WHERE id = $1', [fallback]);
    const first = await createRule(server, token, { customer_id: thrifty, landings: [landing.id], leads_number: 100, priority: 1 });
    const second = await createRule(server, token, { customer_id: fallback, landings: [landing.id], leads_number: 100, priority: 9 });
    await db.query('UPDATE rules SET price_cents = 300 WHERE id = $1', [first.id]);
    // The thrifty customer was credited 200 this month: it may buy 1,200 more (4 leads at 300), the fifth goes on.
    await db.query(`INSERT INTO customer_months (customer_id, month, credits_cents, returns) VALUES ($1, '2026-11-01', 200, 1)`, [thrifty]);

    const ids = await leadsOf(landing.id, 6);
    const routed = await route(ids);
    expect([...routed.outcomes.values()]).toEqual(Array(6).fill('delivered'));

    const { rows: sales } = await db.query<{ lead_id: number; rule_id: number; price_cents: number }>(
      'SELECT lead_id, rule_id, price_cents FROM lead_sales WHERE lead_id = ANY($1::bigint[]) ORDER BY id',
      [ids],
    );
    expect(sales.map((s) => [s.rule_id, s.price_cents])).toEqual([
      [first.id, 300],
      [first.id, 300],
      [first.id, 300],
      [first.id, 300],
      [second.id, 150],
      [second.id, 150],
    ]);
    const { rows: months } = await db.query<{ customer_id: number; sales: number; sold_cents: number; credits_cents: number }>(
      'SELECT customer_id, sales, sold_cents, credits_cents FROM customer_months WHERE customer_id = ANY($1::int[]) ORDER BY customer_id',
      [[thrifty, fallback]],
    );
    expect(months).toEqual([
      { customer_id: thrifty, sales: 4, sold_cents: 1200, credits_cents: 200 },
      { customer_id: fallback, sales: 2, sold_cents: 300, credits_cents: 0 },
    ]);
    // The budget, reached by the fourth sale, is what the routing filled.
    expect(routed.filled).toEqual([{ customer_id: thrifty }]);
    const alerts = await db.query(`SELECT params FROM alerts WHERE kind = 'budget_reached'`);
    expect(alerts.rows).toEqual([{ params: { customer_id: thrifty } }]);

    // The explanation names the budget for the fifth lead.
    const res = await server.request('GET', `/api/landings/data/${landing.id}/routing/${ids[4]}`, { token });
    const why = (await json<{ data: { considered: Array<{ rule_id: number; reason: string | null }> } }>(res)).data;
    expect(why.considered.map((c) => [c.rule_id, c.reason])).toEqual([
      [second.id, null],
      [first.id, 'budget'],
    ]);
  });

  it('reports the windows and days a batch filled, and only those', async () => {
    const { db } = server.ctx;
    const landing = await createLanding(db);
    const customer = await createCustomer(server, token);
    const hourly = await createRule(server, token, { customer_id: customer, landings: [landing.id], leads_number: 3, priority: 1 });
    await db.query('UPDATE rules SET cap_hour = 2, cap_week = 10 WHERE id = $1', [hourly.id]);
    const daily = await createRule(server, token, { customer_id: await createCustomer(server, token), landings: [landing.id], leads_number: 2, priority: 2 });

    const first = await route(await leadsOf(landing.id, 1, 100));
    expect(first.filled).toEqual([]);
    // Three more: the hour of the first rule fills (2/2), the day of the second fills (2/2).
    const next = await route(await leadsOf(landing.id, 3, 200));
    expect([...next.outcomes.values()]).toEqual(['delivered', 'delivered', 'delivered']);
    expect(next.filled).toEqual(
      expect.arrayContaining([
        { rule_id: hourly.id, span: 'hour' },
        { rule_id: daily.id, span: 'day' },
      ]),
    );
    expect(next.filled).toHaveLength(2);
    // Each raised an alert to the admins, in the routing's transaction.
    const alerts = await db.query<{ params: object }>(`SELECT params FROM alerts WHERE kind = 'cap_reached' ORDER BY id`);
    expect(alerts.rows.map((a) => a.params)).toEqual(
      expect.arrayContaining([
        { rule_id: hourly.id, span: 'hour' },
        { rule_id: daily.id, span: 'day' },
      ]),
    );
    expect(alerts.rows).toHaveLength(2);
  });
});
