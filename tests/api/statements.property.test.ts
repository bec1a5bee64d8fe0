// Statements against a reference (issue 26): for random sales (rules, channels, prices, moments
// near the Paris month and day boundaries, across the clock changes) and random returns, written
// straight into lead_sales, every month's statement has exactly the lines and totals summed here.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Statement } from '../../src/api/customers/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';
import { createCustomer, createRule } from './lives-support';

let server: TestServer;
let token: string;
let customer: number;
let lead: number;
/** Names in plain order: the server's French order agrees with `<` on them. */
let rules: { id: number; name: string }[];

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  customer = await createCustomer(server, token, { name: 'Client Propriété' });
  const landing = await createLanding(server.ctx.db);
  [lead] = await insertLeads(server.ctx.db, landing.id, [{ status: 'archived' }]);
  rules = [];
  for (const name of ['alpha', 'bravo', 'charlie'])
    rules.push(await createRule(server, token, { name, customer_id: customer, landings: [landing.id], active: false }));
});
afterAll(() => server.close());

interface Sale {
  rule: number | null;
  channel: 'live' | 'export';
  price: number;
  soldAt: Date;
  returnedAt: Date | null;
}

const parisDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
const dayOf = (d: Date) => parisDay.format(d);

/** The statement of `month` as the issue defines it, summed here from the sales. */
function reference(sales: Sale[], month: string) {
  const lines = new Map<
    string,
    { date: string; rule: { id: number; name: string } | null; channel: string; leads: number; returned: number; amount_cents: number; credits_cents: number }
  >();
  const line = (date: string, s: Sale) => {
    const key = `${date}|${s.rule}|${s.channel}`;
    let l = lines.get(key);
    if (!l) {
      const rule = s.rule === null ? null : rules.find((r) => r.id === s.rule)!;
      l = { date, rule: rule && { id: rule.id, name: rule.name }, channel: s.channel, leads: 0, returned: 0, amount_cents: 0, credits_cents: 0 };
      lines.set(key, l);
    }
    return l;
  };
  for (const s of sales) {
    const sold = dayOf(s.soldAt);
    if (sold.startsWith(month)) {
      const l = line(sold, s);
      l.leads++;
      l.amount_cents += s.price;
    }
    if (s.returnedAt) {
      const back = dayOf(s.returnedAt);
      if (back.startsWith(month)) {
        const l = line(back, s);
        l.returned++;
        l.credits_cents += s.price;
      }
    }
  }
  const ruleKey = (l: { rule: { name: string } | null }) => (l.rule === null ? '\uffff' : l.rule.name);
  const sorted = [...lines.values()].sort((a, b) =>
    a.date !== b.date ? (a.date < b.date ? -1 : 1) : ruleKey(a) !== ruleKey(b) ? (ruleKey(a) < ruleKey(b) ? -1 : 1) : a.channel < b.channel ? -1 : 1,
  );
  const total = sorted.reduce((n, l) => n + l.amount_cents, 0);
  const credits = sorted.reduce((n, l) => n + l.credits_cents, 0);
  return { lines: sorted, total_cents: total, credits_cents: credits, due_cents: total - credits };
}

// Paris midnights that start a month (UTC+1 in winter, UTC+2 in summer) and the clock changes.
const edges = [
  '2025-10-31T23:00:00Z',
  '2025-11-30T23:00:00Z',
  '2026-02-28T23:00:00Z',
  '2026-03-29T01:00:00Z',
  '2026-03-31T22:00:00Z',
  '2025-10-26T01:00:00Z',
].map((s) => Date.parse(s));
const from = Date.parse('2025-10-01T00:00:00Z');
const to = Date.parse('2026-04-30T00:00:00Z');
const moment = fc.oneof(
  fc.integer({ min: from, max: to }),
  fc.tuple(fc.constantFrom(...edges), fc.integer({ min: -90, max: 90 })).map(([edge, minutes]) => edge + minutes * 60_000),
);

const sale = fc
  .record({
    rule: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }),
    channel: fc.constantFrom('live' as const, 'export' as const),
    price: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100_000_000 })),
    soldAt: moment,
    // Days after the sale it was returned, if it was.
    back: fc.option(fc.oneof(fc.integer({ min: 0, max: 2 * 86_400_000 }), fc.integer({ min: 0, max: 60 * 86_400_000 })), { nil: null }),
  })
  .map((s): Sale => ({
    rule: s.rule === null ? null : s.rule,
    channel: s.channel,
    price: s.price,
    soldAt: new Date(s.soldAt),
    returnedAt: s.back === null ? null : new Date(Math.min(s.soldAt + s.back, to + 30 * 86_400_000)),
  }));

const months = ['2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];

describe('statements', () => {
  it('equal, line by line and in total, the reference sum of the sales and returns', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sale, { maxLength: 40 }), fc.subarray(months, { minLength: 1, maxLength: 3 }), async (sales, asked) => {
        const withRules = sales.map((s) => ({ ...s, rule: s.rule === null ? null : rules[s.rule]!.id }));
        await server.ctx.db.tx(async (q) => {
          await q.query('DELETE FROM lead_sales WHERE customer_id = $1', [customer]);
          await q.query(
            `INSERT INTO lead_sales (lead_id, customer_id, rule_id, channel, price_cents, sold_at, returned_at, return_reason)
             SELECT $1, $2, t.rule, t.channel, t.price, t.sold, t.back, CASE WHEN t.back IS NULL THEN NULL ELSE 'other' END
               FROM unnest($3::int[], $4::text[], $5::int[], $6::timestamptz[], $7::timestamptz[]) AS t(rule, channel, price, sold, back)`,
            [
              lead,
              customer,
              withRules.map((s) => s.rule),
              withRules.map((s) => s.channel),
              withRules.map((s) => s.price),
              withRules.map((s) => s.soldAt.toISOString()),
              withRules.map((s) => s.returnedAt?.toISOString() ?? null),
            ],
          );
        });
        for (const month of asked) {
          const res = await server.request('GET', `/api/customers/${customer}/statement?month=${month}`, { token });
          expect(res.status).toBe(200);
          const { data } = await json<{ data: Statement }>(res);
          expect({ lines: data.lines, total_cents: data.total_cents, credits_cents: data.credits_cents, due_cents: data.due_cents }).toEqual(
            reference(withRules, month),
          );
        }
      }),
      { numRuns: 40 },
    );
  });
});
