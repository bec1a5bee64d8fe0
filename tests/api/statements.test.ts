// Issue 26, first part: prices and budgets' settings on customers and rules, exports' prices and the
// customer's month, statements and their documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import type { Customer, Statement } from '../../src/api/customers/contract';
import type { Rule } from '../../src/api/rules/contract';
import { parisMonth } from '../../src/shared/dates';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';
import { createCustomer, createRule } from './lives-support';

let server: TestServer;
let token: string;
let landing: { id: number; key: string };

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db, { name: 'PAC relevés' });
});
afterAll(() => server.close());

const db = () => server.ctx.db;
const call = (method: string, path: string, body?: unknown, as = token) => server.request(method, path, { body, token: as });
const customerOf = async (id: number) => (await json<{ data: Customer[] }>(await call('GET', '/api/customers'))).data.find((c) => c.id === id)!;
/** Leads nobody routes live (archived): only the exports below sell them. */
const archivedLeads = (n: number) =>
  insertLeads(
    db(),
    landing.id,
    Array.from({ length: n }, (_, i) => ({ status: 'archived', telephone: `06${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`, nom: `L${i}` })),
  );
const exportTo = (leads: number[], extra: Record<string, unknown>) =>
  call('POST', `/api/landings/data/${landing.id}/export`, { bookType: 'csv', leads, ...extra });
const month = parisMonth();
const statementOf = (id: number, m = month) => call('GET', `/api/customers/${id}/statement?month=${m}`);

describe('customer money settings', () => {
  it('defaults: no price, no budget, 7 days of returns, no return limit; all four set on creation and changed by PATCH', async () => {
    const id = await createCustomer(server, token);
    expect(await customerOf(id)).toMatchObject({
      default_price_cents: 0,
      monthly_budget_cents: null,
      return_days: 7,
      max_return_rate: null,
      month_revenue_cents: 0,
    });
    const set = await createCustomer(server, token, { default_price_cents: 1250, monthly_budget_cents: 500_000, return_days: 0, max_return_rate: 12.5 });
    expect(await customerOf(set)).toMatchObject({ default_price_cents: 1250, monthly_budget_cents: 500_000, return_days: 0, max_return_rate: 12.5 });
    const res = await call('PATCH', `/api/customers/${set}`, { default_price_cents: 990, monthly_budget_cents: null, return_days: 14 });
    expect(res.status).toBe(200);
    expect((await json<{ data: Customer }>(res)).data).toMatchObject({
      default_price_cents: 990,
      monthly_budget_cents: null,
      return_days: 14,
      max_return_rate: 12.5,
    });
  });

  it('refuses negative, fractional, huge and text amounts with 422 naming the field', async () => {
    const id = await createCustomer(server, token);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ default_price_cents: -1 }, 'default_price_cents', /^Prix par défaut/],
      [{ default_price_cents: 12.5 }, 'default_price_cents', /^Prix par défaut/],
      [{ default_price_cents: 100_000_001 }, 'default_price_cents', /^Prix par défaut/],
      [{ default_price_cents: '1250' }, 'default_price_cents', /^Prix par défaut/],
      [{ monthly_budget_cents: -5 }, 'monthly_budget_cents', /^Budget mensuel/],
      [{ monthly_budget_cents: 1e12 }, 'monthly_budget_cents', /^Budget mensuel/],
      [{ return_days: 366 }, 'return_days', /^Délai de retour/],
      [{ return_days: 1.5 }, 'return_days', /^Délai de retour/],
      [{ max_return_rate: 101 }, 'max_return_rate', /^Taux de retour maximal/],
      [{ max_return_rate: 1.234 }, 'max_return_rate', /^Taux de retour maximal/],
      [{ max_return_rate: 'dix' }, 'max_return_rate', /^Taux de retour maximal/],
    ];
    for (const [body, field, message] of cases) {
      for (const res of [
        await call('PATCH', `/api/customers/${id}`, body),
        await call('POST', '/api/customers', { name: 'X', email: `x${Date.now()}@x.fr`, ...body }),
      ]) {
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect((await json<{ errors: Record<string, string> }>(res)).errors[field]).toMatch(message);
      }
    }
    expect(await customerOf(id)).toMatchObject({ default_price_cents: 0, monthly_budget_cents: null, return_days: 7 });
  });
});

describe('rule prices', () => {
  it('null by default (the customer’s price), set on creation, changed and cleared by PATCH, refused when bad', async () => {
    const customer = await createCustomer(server, token);
    const rule = await createRule(server, token, { customer_id: customer, landings: [landing.id] });
    expect(rule.price_cents).toBeNull();
    const priced = await createRule(server, token, { customer_id: customer, landings: [landing.id], price_cents: 1800 });
    expect(priced.price_cents).toBe(1800);
    const patch = await call('PATCH', `/api/customers/rules/${priced.id}`, { price_cents: null });
    expect((await json<{ data: Rule }>(patch)).data.price_cents).toBeNull();
    for (const price_cents of [-1, 0.5, 100_000_001, 'dix']) {
      const res = await call('PATCH', `/api/customers/rules/${rule.id}`, { price_cents });
      expect(res.status).toBe(422);
      expect((await json<{ errors: Record<string, string> }>(res)).errors.price_cents).toMatch(/^Prix du lead/);
    }
    const list = (await json<{ data: Rule[] }>(await call('GET', `/api/customers/rules?customer_id=${customer}`))).data;
    expect(list.map((r) => r.price_cents).sort()).toEqual([null, null]);
  });
});

describe('exports to a customer', () => {
  it('sells at the customer’s default price, or at the price given, recorded on the export and counted in the month', async () => {
    const id = await createCustomer(server, token, { name: 'Acheteur Prix', default_price_cents: 1500 });
    const first = await archivedLeads(3);
    expect((await exportTo(first, { for_customer: 'acheteur prix' })).status).toBe(200);
    const second = await archivedLeads(2);
    expect((await exportTo(second, { for_customer: 'Acheteur Prix', price_cents: 990 })).status).toBe(200);
    const sales = await db().query<{ price_cents: number; channel: string; export_price: number }>(
      `SELECT s.price_cents, s.channel, e.price_cents AS export_price FROM lead_sales s JOIN exports e ON e.id = s.export_id WHERE s.customer_id = $1 ORDER BY s.lead_id`,
      [id],
    );
    expect(sales.rows).toEqual([
      ...first.map(() => ({ price_cents: 1500, channel: 'export', export_price: 1500 })),
      ...second.map(() => ({ price_cents: 990, channel: 'export', export_price: 990 })),
    ]);
    const months = await db().query('SELECT sales, sold_cents::int AS sold_cents FROM customer_months WHERE customer_id = $1', [id]);
    expect(months.rows).toEqual([{ sales: 5, sold_cents: 3 * 1500 + 2 * 990 }]);
    expect((await customerOf(id)).month_revenue_cents).toBe(6480);
  });

  it('refuses a bad price (422), and a price for an export sold to no customer', async () => {
    const leads = await archivedLeads(1);
    await createCustomer(server, token, { name: 'Acheteur Mauvais Prix' });
    for (const price_cents of [-1, 1.5, 1e9, '10']) {
      const res = await exportTo(leads, { for_customer: 'Acheteur Mauvais Prix', price_cents });
      expect(res.status).toBe(422);
      expect((await json<{ errors: Record<string, string> }>(res)).errors.price_cents).toMatch(/^Prix du lead/);
    }
    const none = await exportTo(leads, { for_customer: 'Personne de connu', price_cents: 500 });
    expect(none.status).toBe(422);
    expect((await json<{ errors: Record<string, string> }>(none)).errors.price_cents).toMatch(/Vendu à/);
    expect((await db().query('SELECT entry_status FROM leads WHERE id = $1', [leads[0]])).rows[0]).toEqual({ entry_status: 'archived' });
  });

  it('refuses, all or nothing, an export that would pass the customer’s monthly budget (409)', async () => {
    const id = await createCustomer(server, token, { name: 'Acheteur Budget', default_price_cents: 1000, monthly_budget_cents: 2500 });
    const two = await archivedLeads(2);
    expect((await exportTo(two, { for_customer: 'Acheteur Budget' })).status).toBe(200);
    const over = await archivedLeads(1);
    const res = await exportTo(over, { for_customer: 'Acheteur Budget' });
    expect(res.status).toBe(409);
    expect((await json<{ message: string }>(res)).message).toMatch(/^Budget mensuel dépassé/);
    expect((await db().query('SELECT entry_status FROM leads WHERE id = $1', [over[0]])).rows[0]).toEqual({ entry_status: 'archived' });
    // Exactly up to the budget passes.
    expect((await exportTo(over, { for_customer: 'Acheteur Budget', price_cents: 500 })).status).toBe(200);
    expect((await customerOf(id)).month_revenue_cents).toBe(2500);
  });
});

describe('re-injecting an export to a customer', () => {
  it('credits its sales on the statement and in the month its budget counts', async () => {
    const id = await createCustomer(server, token, { name: 'Acheteur Réinjecté', default_price_cents: 800, monthly_budget_cents: 2400 });
    const leads = await archivedLeads(3);
    const sold = await json<{ data: { token: string } }>(await exportTo(leads, { for_customer: 'Acheteur Réinjecté' }));
    const exportId = (await db().query<{ id: number }>('SELECT id FROM exports WHERE token = $1', [sold.data.token])).rows[0]!.id;
    expect((await customerOf(id)).month_revenue_cents).toBe(2400);
    expect((await call('POST', `/api/exports/insert/${exportId}`)).status).toBe(200);
    expect((await customerOf(id)).month_revenue_cents).toBe(0);
    const { data } = await json<{ data: Statement }>(await statementOf(id));
    expect(data).toMatchObject({ total_cents: 2400, credits_cents: 2400, due_cents: 0 });
    expect(data.lines.every((l) => l.channel === 'export' && l.rule === null)).toBe(true);
    // The budget is free again for this month.
    expect((await exportTo(await archivedLeads(3), { for_customer: 'Acheteur Réinjecté' })).status).toBe(200);
  });
});

describe('statements', () => {
  let customer: number;
  let rules: Rule[];

  beforeAll(async () => {
    customer = await createCustomer(server, token, { name: 'Client Relevé' });
    rules = [
      await createRule(server, token, { name: 'Zèbre', customer_id: customer, landings: [landing.id], active: false }),
      await createRule(server, token, { name: 'Abeille', customer_id: customer, landings: [landing.id], active: false }),
    ];
    const leads = await archivedLeads(6);
    const sale = (lead: number, rule: number | null, channel: string, price: number, soldAt: string, returnedAt: string | null = null) =>
      db().query(
        `INSERT INTO lead_sales (lead_id, customer_id, rule_id, channel, price_cents, sold_at, returned_at, return_reason)
         VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7::timestamptz IS NULL THEN NULL ELSE 'other' END)`,
        [lead, customer, rule, channel, price, soldAt, returnedAt],
      );
    // 2026-03-31 23:30 UTC is April 1st in Paris (summer time): an April sale.
    await sale(leads[0]!, rules[0]!.id, 'live', 1000, '2026-04-02T08:00:00Z');
    await sale(leads[1]!, rules[1]!.id, 'live', 1200, '2026-04-02T09:00:00Z', '2026-05-03T10:00:00Z');
    await sale(leads[2]!, rules[1]!.id, 'live', 1200, '2026-03-31T23:30:00Z');
    await sale(leads[3]!, null, 'export', 700, '2026-04-02T10:00:00Z', '2026-04-05T10:00:00Z');
    await sale(leads[4]!, rules[0]!.id, 'live', 1000, '2026-03-31T21:30:00Z');
  });

  it('gives the month’s lines by date, rule name and channel, with sales on their day and credits on the return’s day', async () => {
    const res = await statementOf(customer, '2026-04');
    expect(res.status).toBe(200);
    const { data } = await json<{ data: Statement }>(res);
    const [zebre, abeille] = rules.map((r) => ({ id: r.id, name: r.name }));
    expect(data).toEqual({
      customer: { id: customer, name: 'Client Relevé', email: expect.any(String) },
      month: '2026-04',
      lines: [
        { date: '2026-04-01', rule: abeille, channel: 'live', leads: 1, returned: 0, amount_cents: 1200, credits_cents: 0 },
        { date: '2026-04-02', rule: abeille, channel: 'live', leads: 1, returned: 0, amount_cents: 1200, credits_cents: 0 },
        { date: '2026-04-02', rule: zebre, channel: 'live', leads: 1, returned: 0, amount_cents: 1000, credits_cents: 0 },
        { date: '2026-04-02', rule: null, channel: 'export', leads: 1, returned: 0, amount_cents: 700, credits_cents: 0 },
        { date: '2026-04-05', rule: null, channel: 'export', leads: 0, returned: 1, amount_cents: 0, credits_cents: 700 },
      ],
      total_cents: 4100,
      credits_cents: 700,
      due_cents: 3400,
    });
    const may = (await json<{ data: Statement }>(await statementOf(customer, '2026-05'))).data;
    expect(may).toMatchObject({ lines: [{ date: '2026-05-03', rule: abeille, leads: 0, returned: 1, credits_cents: 1200 }], total_cents: 0, due_cents: -1200 });
    const march = (await json<{ data: Statement }>(await statementOf(customer, '2026-03'))).data;
    expect(march.lines).toEqual([{ date: '2026-03-31', rule: zebre, channel: 'live', leads: 1, returned: 0, amount_cents: 1000, credits_cents: 0 }]);
  });

  it('refuses bad or future months (422), unknown customers (404), non-admins (403)', async () => {
    const next = new Date();
    next.setUTCMonth(next.getUTCMonth() + 2);
    for (const m of ['2026-13', 'abc', '2026-4', '1999-12', '9999-01', next.toISOString().slice(0, 7), '']) {
      const res = await statementOf(customer, m);
      expect(res.status, m).toBe(422);
      expect((await json<{ errors: Record<string, string> }>(res)).errors.month).toMatch(/Mois/);
    }
    expect((await call('GET', `/api/customers/${customer}/statement`)).status).toBe(422);
    expect((await statementOf(987654)).status).toBe(404);
    expect((await statementOf(Number('99999999999'))).status).toBe(404);
    expect((await call('GET', `/api/customers/${customer}/statement/file?month=2026-04&format=doc`)).status).toBe(422);
    expect((await call('GET', `/api/customers/987654/statement/file?month=2026-04&format=pdf`)).status).toBe(404);
    const staff = await normalUserToken(server);
    expect((await call('GET', `/api/customers/${customer}/statement?month=2026-04`, undefined, staff)).status).toBe(403);
  });

  it('gives the statement as csv, xlsx and pdf documents with the lines and the totals', async () => {
    const csv = await call('GET', `/api/customers/${customer}/statement/file?month=2026-04&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toContain('Relev');
    const text = (await csv.text()).replace(/\u00a0|\u202f/g, ' ');
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Date;Règle;Canal;Leads;Retournés;Montant HT;Avoirs HT');
    // Amounts written the French way, quoted: their comma is a separator to some readers.
    expect(lines[1]).toBe('2026-04-01;Abeille;Livraison;1;0;"12,00 €";"0,00 €"');
    expect(lines.at(-2)).toBe(';Total du mois;;4;1;"41,00 €";"7,00 €"');
    expect(lines.at(-1)).toBe(';Net à payer HT (ventes moins avoirs);;;;"34,00 €";');

    const xlsx = await call('GET', `/api/customers/${customer}/statement/file?month=2026-04&format=xlsx`);
    const book = XLSX.read(Buffer.from(await xlsx.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(rows).toHaveLength(1 + 5 + 2);
    expect(rows[1]).toEqual([
      46113 /* 2026-04-01, a date cell */,
      'Abeille',
      'Livraison',
      1,
      0,
      expect.stringMatching(/^12,00\s€$/),
      expect.stringMatching(/^0,00\s€$/),
    ]);

    const pdf = await call('GET', `/api/customers/${customer}/statement/file?month=2026-04&format=pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(bytes.startsWith('%PDF')).toBe(true);
    expect(bytes.match(/\/Type \/Page\b/g)).toHaveLength(1);
  });

  it('puts 40 lines on each A4 page of the pdf', async () => {
    const many = await createCustomer(server, token, { name: 'Client Pages' });
    const leads = await archivedLeads(45);
    // 45 days × 1 sale would span two months: 45 distinct channel × day pairs in April instead.
    await db().query(
      `INSERT INTO lead_sales (lead_id, customer_id, channel, price_cents, sold_at)
       SELECT id, $2, CASE WHEN n % 2 = 0 THEN 'live' ELSE 'export' END, 100, '2026-04-01T10:00:00Z'::timestamptz + ((n / 2) || ' days')::interval
         FROM unnest($1::bigint[]) WITH ORDINALITY AS t(id, n)`,
      [leads, many],
    );
    const statement = (await json<{ data: Statement }>(await statementOf(many, '2026-04'))).data;
    expect(statement.lines).toHaveLength(45);
    const pdf = await call('GET', `/api/customers/${many}/statement/file?month=2026-04&format=pdf`);
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    // 45 lines and the two totals rows: 40 on the first page, 7 on the second.
    expect(bytes.match(/\/Type \/Page\b/g)).toHaveLength(2);
    expect(bytes).toContain('/MediaBox [0 0 595.28 841.89]');
  });
});
