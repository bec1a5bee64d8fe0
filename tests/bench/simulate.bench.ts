// What-if simulation bench (issue 27): the world of delivery-load.ts (1,000 rules over 20 landings,
// 100 customers), 30 days × 10,000 leads a day (a third of them sold live by a rule, for the
// replay's windows, budgets and dedupe), and a new rule on every landing simulated over those 30
// days ten times, a different one each time, a few intakes between runs: all 300,000 leads
// replayed with the draft (the replay without it is kept while the world and the rules stay as
// they are). Budget: p95 < 2 s on PGlite (a temporary folder), or on a new database of DATABASE_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { boot } from '../../server/boot';
import { loadConfig } from '../../server/config';
import { departementFor } from '../../server/services/geo';
import { keptWorlds } from '../../server/services/delivery/replay-world';
import { simulateRule } from '../../server/services/delivery/simulate';
import { intakeLead } from '../../server/services/intake';
import { ruleCreateRequest, weekdays } from '../../src/api/rules/contract';
import { addRules, freshDatabase, percentile, randomStream, RULES, seedWorld } from './delivery-load';
import type { BenchResult } from './run';

const DAYS = 30;
const PER_DAY = Number(process.env.BENCH_SIMULATE_PER_DAY ?? 10_000);
const RUNS = 10;
const INTAKES = 5;

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

    // Each run a different draft (its customer, landings, departments, cap and price): no answer
    // can be the last one's. Between runs a few leads come through the intake and are routed, as
    // on a live server: the kept world is brought up to date, not read again.
    const draft = (i: number) =>
      ruleCreateRequest.parse({
        name: `Essai ${i}`,
        customer_id: world.customers[i % world.customers.length],
        landings: world.landings.map((l) => l.id),
        zip: i % 2 === 0 ? [] : [world.departements[i][0], world.departements[i + 20][0]],
        leads_number: 200 + 37 * i,
        price_cents: 150 + i,
        ...Object.fromEntries(weekdays.map((d) => [d, true])),
      });
    const intakes = async (i: number) => {
      const ids: number[] = [];
      for (let k = 0; k < INTAKES; k++) {
        const landing = world.landings[(i * INTAKES + k) % world.landings.length];
        const { lead } = await intakeLead(server.ctx, landing.key, {
          nom: 'Bench',
          telephone: `07${String(i * INTAKES + k).padStart(8, '0')}`,
          code_postal: codes[(i * 13 + k) % codes.length],
          chauffage: 'Gaz',
          surface: 90,
        });
        ids.push(lead.id);
      }
      for (let tries = 0; tries < 600; tries++) {
        const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_routings WHERE lead_id = ANY($1::bigint[])', [ids]);
        if (rows[0].n === ids.length) return;
        await new Promise((done) => setTimeout(done, 50));
      }
      throw new Error('the intakes were not routed');
    };
    const times: number[] = [];
    const cpu: number[] = [];
    let considered = 0;
    // Collected first: what the kept world holds, not the garbage of its reading.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const memory = () => {
      gc();
      return process.memoryUsage();
    };
    const bare = memory();
    let kept = bare;
    let first = 0;
    for (let i = 0; i <= RUNS; i++) {
      if (i > 0) await intakes(i);
      const started = performance.now();
      const used = process.cpuUsage();
      const result = await simulateRule(db, { rule: { kind: 'new', rule: draft(i) }, days: DAYS });
      const { user, system } = process.cpuUsage(used);
      // The first run reads the world and warms the caches (the geography, the query plans): not counted.
      if (i > 0) {
        times.push(performance.now() - started);
        cpu.push((user + system) / 1000);
      } else {
        kept = memory();
        first = (user + system) / 1000;
      }
      considered = result.leads_considered;
    }
    const last = memory();
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    console.log(
      `  ${considered} leads replayed per run (${INTAKES} intakes between runs), CPU of the first run (the world read) ${first.toFixed(0)} ms, of the others ${cpu.map((c) => c.toFixed(0)).join(' ')} ms; ` +
        `heap +${mb(kept.heapUsed - bare.heapUsed)} MB and array buffers +${mb(kept.arrayBuffers - bare.arrayBuffers)} MB after the first run, ` +
        `+${mb(last.heapUsed - bare.heapUsed)} and +${mb(last.arrayBuffers - bare.arrayBuffers)} MB after the last (rss +${mb(last.rss - bare.rss)} MB); ` +
        `kept ${JSON.stringify(keptWorlds(db))}; load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
    return [
      { name: `simulate a new rule, ${DAYS} days × ${PER_DAY} leads, ${RULES} rules (p95 of ${RUNS})`, value: percentile(times, 95), unit: 'ms', budget: 2000 },
      { name: 'simulate a new rule (p50)', value: percentile(times, 50), unit: 'ms' },
      { name: 'simulate a new rule, CPU (p95)', value: percentile(cpu, 95), unit: 'ms' },
      { name: 'leads replayed', value: considered, unit: 'count' },
    ];
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
