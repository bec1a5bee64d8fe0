import { expect } from 'vitest';
import { ADMIN, type TestServer } from './harness';
import { createLanding, json } from './leads-support';
import { until } from '../support/until';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `n` intakes posted at once, alternately to two instances sharing one PostgreSQL, five at a time
 * for the same person (on five landings), against shared rules whose hour, day, week and month caps and the landing's
 * max_buyers (2) bind, and an exclusive rule served last. Checks that no window is passed, no
 * customer gets a person twice, no lead goes beyond max_buyers, nothing is lost, and that the
 * counters, reports, leads and mails reconcile with lead_sales.
 */
export async function raceWindows(a: TestServer, b: TestServer, n: number) {
  const { db } = a.ctx;
  // Every window starts on an hour: the race must not straddle one (it takes well under 3 minutes).
  const { rows: clock } = await db.query<{ left: number }>(`SELECT 3600 - extract(epoch FROM now() - date_trunc('hour', now()))::float AS left`);
  if (clock[0].left < 180) await sleep((clock[0].left + 1) * 1000);

  // Five landings: a person's five leads arrive on different ones (a landing flags a repeated phone as a duplicate, never offered).
  const landings: Array<{ id: number; key: string }> = [];
  for (let i = 0; i < 5; i++) landings.push(await createLanding(db));
  const landingIds = landings.map((l) => l.id);
  await db.query('UPDATE landings SET max_buyers = 2 WHERE id = ANY($1::int[])', [landingIds]);
  const scale = (share: number) => Math.round(n * share);
  // Each rule's binding window (the others wide): hour, day, week, month; then the exclusive one, last by priority.
  const plan = [
    { name: 'Heure', cap_hour: scale(0.03), leads_number: 10_000, cap_week: 100_000, cap_month: 100_000, exclusive: false, priority: 5, binds: scale(0.03) },
    { name: 'Jour', cap_hour: 100_000, leads_number: scale(0.04), cap_week: 100_000, cap_month: 100_000, exclusive: false, priority: 5, binds: scale(0.04) },
    { name: 'Semaine', cap_hour: 100_000, leads_number: 10_000, cap_week: scale(0.05), cap_month: 100_000, exclusive: false, priority: 5, binds: scale(0.05) },
    { name: 'Mois', cap_hour: 100_000, leads_number: 10_000, cap_week: 100_000, cap_month: scale(0.06), exclusive: false, priority: 5, binds: scale(0.06) },
    { name: 'Exclusive', cap_hour: null, leads_number: scale(0.02), cap_week: null, cap_month: null, exclusive: true, priority: 9, binds: scale(0.02) },
  ];
  const rules: Array<(typeof plan)[number] & { id: number; customer_id: number }> = [];
  for (const p of plan) {
    const { rows: c } = await db.query<{ id: number }>(`INSERT INTO customers (name, email) VALUES ($1, $2) RETURNING id`, [
      `Course ${p.name}`,
      `course-${p.name.toLowerCase()}-${landingIds[0]}@example.fr`,
    ]);
    const { rows: r } = await db.query<{ id: number }>(
      `INSERT INTO rules (name, customer_id, landing_ids, leads_number, cap_hour, cap_week, cap_month, exclusive, priority,
                          monday, tuesday, wednesday, thursday, friday, saturday, sunday)
       VALUES ($1, $2, $3::int[], $4, $5, $6, $7, $8, $9, true, true, true, true, true, true, true) RETURNING id`,
      [p.name, c[0].id, landingIds, p.leads_number, p.cap_hour, p.cap_week, p.cap_month, p.exclusive, p.priority],
    );
    rules.push({ ...p, id: r[0].id, customer_id: c[0].id });
  }

  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      (i % 2 ? b : a).request('POST', `/api/intake/${landings[i % 5].key}`, {
        body: { nom: `Course ${i}`, telephone: `06${String(30_000_000 + Math.floor(i / 5))}`, code_postal: '30900' },
        headers: { 'x-forwarded-for': `10.25.${Math.floor(i / 250)}.${i % 250}` },
      }),
    ),
  );
  expect(answers.map((r) => r.status)).toEqual(Array(n).fill(201));
  const ids = (await Promise.all(answers.map((r) => json<{ data: { id: number } }>(r)))).map((body) => body.data.id);
  expect(new Set(ids).size).toBe(n);
  const count = async (sql: string) => (await db.query<{ n: number }>(sql, [ids])).rows[0].n;
  await until(async () => (await count('SELECT count(*)::int AS n FROM lead_routings WHERE lead_id = ANY($1::bigint[])')) === n, 240_000, 'every lead routed');

  const { rows: sales } = await db.query<{ lead_id: string; customer_id: number; rule_id: number; report_id: number; phone: string }>(
    'SELECT lead_id, customer_id, rule_id, report_id, phone FROM lead_sales WHERE lead_id = ANY($1::bigint[]) ORDER BY id',
    [ids],
  );
  // Every rule filled exactly to its binding window, none beyond: the totals add up.
  const byRule = (id: number) => sales.filter((s) => s.rule_id === id).length;
  expect(rules.map((r) => [r.name, byRule(r.id)])).toEqual(rules.map((r) => [r.name, r.binds]));
  expect(sales.length).toBe(plan.reduce((sum, p) => sum + p.binds, 0));

  // The counters are the sales: each window's row, each report's count.
  const { rows: windows } = await db.query<{ rule_id: number; span: string; count: number; sold: number; cap: number | null }>(
    `SELECT w.rule_id, w.span, w.count, w.cap,
            (SELECT count(*)::int FROM lead_sales s WHERE s.rule_id = w.rule_id
                AND date_trunc(w.span, s.sold_at AT TIME ZONE 'Europe/Paris') = w.start) AS sold
       FROM rule_windows w WHERE w.rule_id = ANY($1::int[])`,
    [rules.map((r) => r.id)],
  );
  expect(windows.length).toBe(3 * rules.length);
  for (const w of windows) {
    expect(w.count, `${w.rule_id} ${w.span}`).toBe(w.sold);
    if (w.cap !== null) expect(w.count).toBeLessThanOrEqual(w.cap);
  }
  const { rows: reports } = await db.query<{ count: number; leads_number: number; sold: number }>(
    `SELECT rep.count, rep.leads_number, (SELECT count(*)::int FROM lead_sales s WHERE s.report_id = rep.id) AS sold FROM reports rep WHERE rep.rule_id = ANY($1::int[])`,
    [rules.map((r) => r.id)],
  );
  for (const rep of reports) expect([rep.count, rep.count <= rep.leads_number]).toEqual([rep.sold, true]);

  // Per lead: at most max_buyers, distinct customers, an exclusive sale alone.
  const exclusive = rules.find((r) => r.exclusive)!.id;
  const perLead = new Map<string, typeof sales>();
  for (const s of sales) perLead.set(s.lead_id, [...(perLead.get(s.lead_id) ?? []), s]);
  for (const list of perLead.values()) {
    expect(list.length).toBeLessThanOrEqual(2);
    expect(new Set(list.map((s) => s.customer_id)).size).toBe(list.length);
    if (list.some((s) => s.rule_id === exclusive)) expect(list.length).toBe(1);
  }
  // No customer bought a person twice (dedupe 30 days).
  const pairs = sales.map((s) => `${s.customer_id}:${s.phone}`);
  expect(new Set(pairs).size).toBe(pairs.length);

  // Nothing lost: the sold leads are extracted for their latest sale, delivered; the others new, unmatched.
  const { rows: leads } = await db.query<{ id: string; entry_status: string; rapport_id: number | null; outcome: string }>(
    `SELECT l.id, l.entry_status, l.rapport_id, r.outcome FROM leads l JOIN lead_routings r ON r.lead_id = l.id WHERE l.id = ANY($1::bigint[])`,
    [ids],
  );
  expect(leads.length).toBe(n);
  for (const l of leads) {
    const mine = perLead.get(l.id);
    expect([l.entry_status, l.rapport_id, l.outcome]).toEqual(mine ? ['extracted', mine[mine.length - 1].report_id, 'delivered'] : ['new', null, 'unmatched']);
  }

  // Each sale mailed once, for its own report.
  await until(
    async () => (await count(`SELECT count(*)::int AS n FROM deliveries WHERE lead_id = ANY($1::bigint[]) AND status = 'sent'`)) === sales.length,
    120_000,
    'the mails',
  );
  expect(
    await count(
      'SELECT count(*)::int AS n FROM (SELECT 1 FROM deliveries WHERE lead_id = ANY($1::bigint[]) GROUP BY lead_id, report_id HAVING count(*) > 1) twice',
    ),
  ).toBe(0);
}

/**
 * `n` intakes posted 150 at once, alternately to two instances sharing one PostgreSQL, against three
 * exclusive rules served in priority order: a customer with a budget and a rule price (a credit of
 * this month leaving it more room), one with a budget and its default price, and one without a
 * budget that takes the rest. Each budgeted customer buys exactly what its budget allows, not one
 * cent more; its month's counter and its statement are its sales.
 */
export async function raceBudgets(a: TestServer, b: TestServer, n: number) {
  const { db } = a.ctx;
  const landing = await createLanding(db);
  const month = (await db.query<{ month: string }>(`SELECT to_char(now() AT TIME ZONE 'Europe/Paris', 'YYYY-MM-01') AS month`)).rows[0].month;
  // Each customer: [budget, default price, rule price, credit this month] and the sales it must get.
  const plan = [
    { name: 'Budget prix règle', budget: 1000, price: 900, rulePrice: 70, credit: 210, sells: Math.floor((1000 + 210) / 70) },
    { name: 'Budget prix client', budget: 2000, price: 130, rulePrice: null, credit: 0, sells: Math.floor(2000 / 130) },
    { name: 'Sans budget', budget: null, price: 10, rulePrice: null, credit: 0, sells: 0 },
  ];
  plan[2].sells = n - plan[0].sells - plan[1].sells;
  const customers: number[] = [];
  const rules: number[] = [];
  for (const [i, p] of plan.entries()) {
    const { rows: c } = await db.query<{ id: number }>(
      `INSERT INTO customers (name, email, default_price_cents, monthly_budget_cents) VALUES ($1, $2, $3, $4) RETURNING id`,
      [p.name, `budget-${i}-${landing.id}@example.fr`, p.price, p.budget],
    );
    if (p.credit)
      await db.query(`INSERT INTO customer_months (customer_id, month, returns, credits_cents) VALUES ($1, $2::date, 1, $3)`, [c[0].id, month, p.credit]);
    const { rows: r } = await db.query<{ id: number }>(
      `INSERT INTO rules (name, customer_id, landing_ids, leads_number, priority, price_cents, monday, tuesday, wednesday, thursday, friday, saturday, sunday)
       VALUES ($1, $2, $3::int[], 10000, $4, $5, true, true, true, true, true, true, true) RETURNING id`,
      [p.name, c[0].id, [landing.id], i + 1, p.rulePrice],
    );
    customers.push(c[0].id);
    rules.push(r[0].id);
  }

  // In waves of 150 at once (each instance's pool has ten connections, a request waits 5 s for one).
  const answers: Response[] = [];
  for (let wave = 0; wave < n; wave += 150)
    answers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(150, n - wave) }, (_, k) => {
          const i = wave + k;
          return (i % 2 ? b : a).request('POST', `/api/intake/${landing.key}`, {
            body: { nom: `Budget ${i}`, telephone: `06${String(50_000_000 + i)}`, code_postal: '30900' },
            headers: { 'x-forwarded-for': `10.26.${Math.floor(i / 250)}.${i % 250}` },
          });
        }),
      )),
    );
  expect(answers.map((r) => r.status)).toEqual(Array(n).fill(201));
  const ids = (await Promise.all(answers.map((r) => json<{ data: { id: number } }>(r)))).map((body) => body.data.id);
  await until(
    async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_routings WHERE lead_id = ANY($1::bigint[])', [ids])).rows[0].n === n,
    240_000,
    'every lead routed',
  );

  const { rows: sold } = await db.query<{ customer_id: number; sales: number; cents: number }>(
    `SELECT customer_id, count(*)::int AS sales, sum(price_cents)::int AS cents FROM lead_sales WHERE lead_id = ANY($1::bigint[]) GROUP BY 1`,
    [ids],
  );
  const byCustomer = new Map(sold.map((s) => [s.customer_id, s]));
  expect(plan.map((p, i) => [p.name, byCustomer.get(customers[i])?.sales ?? 0])).toEqual(plan.map((p) => [p.name, p.sells]));
  const { rows: months } = await db.query<{ customer_id: number; sales: number; sold_cents: number; credits_cents: number }>(
    `SELECT customer_id, sales, sold_cents, credits_cents FROM customer_months WHERE customer_id = ANY($1::int[]) AND month = $2::date`,
    [customers, month],
  );
  for (const [i, p] of plan.entries()) {
    const m = months.find((row) => row.customer_id === customers[i])!;
    expect([p.name, m.sales, m.sold_cents]).toEqual([p.name, p.sells, byCustomer.get(customers[i])!.cents]);
    if (p.budget !== null) expect(m.sold_cents - m.credits_cents).toBeLessThanOrEqual(p.budget);
  }
  // Every lead sold once, its price its rule's or its customer's.
  expect(sold.reduce((sum, s) => sum + s.sales, 0)).toBe(n);
  expect(byCustomer.get(customers[0])!.cents).toBe(plan[0].sells * 70);
  // Each statement, read on the other instance, adds up to its sales to the cent.
  const token = await b.login(ADMIN.email, ADMIN.password);
  for (const [i, customer] of customers.entries()) {
    const res = await b.request('GET', `/api/customers/${customer}/statement?month=${month.slice(0, 7)}`, { token });
    const { data } = await json<{ data: { lines: Array<{ leads: number }>; total_cents: number; credits_cents: number; due_cents: number } }>(res);
    const cents = byCustomer.get(customer)!.cents;
    expect([plan[i]!.name, data.total_cents, data.credits_cents, data.due_cents]).toEqual([plan[i]!.name, cents, 0, cents]);
    expect(data.lines.reduce((sum, line) => sum + line.leads, 0)).toBe(plan[i]!.sells);
  }
}
