// What-if simulation bench (issue 27): the world of delivery-load.ts (1,000 rules over 20 landings,
// 100 customers), 30 days × 10,000 leads a day (a third of them sold live by a rule, for the
// replay's windows, budgets and dedupe), and a new rule on every landing, everywhere, simulated
// over those 30 days ten times: all 300,000 leads replayed twice (the rules as they are, then with
// the draft). Budget: p95 < 2 s on PGlite (a temporary folder), or on a new database of DATABASE_URL.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { boot } from '../../server/boot';
import { loadConfig } from '../../server/config';
import { departementFor } from '../../server/services/geo';
import { simulateRule } from '../../server/services/delivery/simulate';
import { ruleCreateRequest, weekdays } from '../../src/api/rules/contract';
import { addRules, freshDatabase, percentile, randomStream, RULES, seedWorld } from './delivery-load';
import type { BenchResult } from './run';

const DAYS = 30;
const PER_DAY = Number(process.env.BENCH_SIMULATE_PER_DAY ?? 10_000);
const RUNS = 10;

export default async function simulateBench(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-simulate-'));
  const databaseUrl = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : undefined;
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    { DATABASE_URL: databaseUrl, pgliteDir: databaseUrl ? undefined : join(dataDir, 'pglite'), seedDemo: false },
  );
  const server = await boot(config, { logger: false });
  const { db } = server.ctx;
  try {
    const stream = randomStream();
    const world = await seedWorld(db);
    await addRules(db, world, RULES, stream);
    // The leads, set-based: each a landing, a postal code (its department), a heating, a surface and
    // a phone drawn by the database's seeded random, arrivals spread evenly over the last 30 days.
    const codes = world.codes.filter((_, i) => i % 7 === 0);
    await db.query('SELECT setseed(0.27)');
    await db.query(
      `INSERT INTO leads (landing_id, created_at, departement, entry_status, data)
       SELECT ($1::int[])[1 + floor(random() * cardinality($1::int[]))::int], now() - g * ($4::float8 * interval '1 second'),
              ($3::text[])[c], 'new',
              jsonb_build_object('nom', 'Bench', 'telephone', '06' || lpad((g % 2000000)::text, 8, '0'), 'code_postal', ($2::text[])[c],
                                 'chauffage', (ARRAY['Gaz', 'Fioul', 'Électrique'])[1 + floor(random() * 3)::int], 'surface', 20 + floor(random() * 200)::int)
         FROM generate_series(1, $5::int) g, LATERAL (SELECT 1 + floor(random() * cardinality($2::text[]))::int + g * 0 AS c) pick`,
      [world.landings.map((l) => l.id), codes, codes.map((c) => departementFor(c)), (DAYS * 86_400) / (DAYS * PER_DAY), DAYS * PER_DAY],
    );
    // Each third lead sold to one of its landing's rules (the lead's id picks which), at its arrival.
    await db.exec(`
      CREATE TEMP TABLE bench_targets AS
        SELECT l AS landing_id, (row_number() OVER (PARTITION BY l ORDER BY r.id) - 1)::int AS n, r.id AS rule_id, r.customer_id
          FROM rules r, unnest(r.landing_ids) l;
      INSERT INTO lead_sales (lead_id, customer_id, rule_id, channel, price_cents, phone, sold_at)
      SELECT l.id, t.customer_id, t.rule_id, 'live', 100, l.data ->> 'telephone', l.created_at
        FROM leads l
        JOIN (SELECT landing_id, count(*)::int AS total FROM bench_targets GROUP BY 1) c ON c.landing_id = l.landing_id
        JOIN bench_targets t ON t.landing_id = l.landing_id AND t.n = (l.id % c.total)::int
       WHERE l.id % 3 = 0;
      DROP TABLE bench_targets;`);
    await db.exec('ANALYZE leads; ANALYZE lead_sales; ANALYZE rules');

    const draft = ruleCreateRequest.parse({
      name: 'Essai',
      customer_id: world.customers[0],
      landings: world.landings.map((l) => l.id),
      leads_number: 500,
      ...Object.fromEntries(weekdays.map((d) => [d, true])),
    });
    const times: number[] = [];
    let considered = 0;
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      const result = await simulateRule(db, { rule: { kind: 'new', rule: draft }, days: DAYS });
      // The first run warms the caches (the geography, the query plans): not counted.
      if (i > 0) times.push(performance.now() - started);
      considered = result.leads_considered;
    }
    console.log(
      `  ${considered} leads replayed twice per run; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    return [
      { name: `simulate a new rule, ${DAYS} days × ${PER_DAY} leads, ${RULES} rules (p95 of ${RUNS})`, value: percentile(times, 95), unit: 'ms', budget: 2000 },
      { name: 'simulate a new rule (p50)', value: percentile(times, 50), unit: 'ms' },
      { name: 'leads replayed', value: considered, unit: 'count' },
    ];
  } finally {
    await server.close();
  }
}
