import { expect } from 'vitest';
import type { TestServer } from './harness';
import { createLanding, json } from './leads-support';
import { until } from './lives-support';

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
