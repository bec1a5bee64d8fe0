// Live delivery bench (docs/decisions.md §7, issues 17, 25 and 30): the world of delivery-load.ts
// (1,000 active rules with filters and all four windows); 50 intakes a second through the public
// intake for BENCH_DELIVERY_SECONDS (default 20), each answer's time compared with the moment the
// engine decided: the p95 must stay under 1 s. Then the cost of choosing a rule for one lead,
// measured on the same server with 10 and with 1,000 rules (the candidate index makes it follow the
// rules that could take the lead, not how many exist), measured in this process. The intakes go to
// the real server as `npm start` runs it on the same fresh database (PGlite in a temporary folder,
// or a new database on DATABASE_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boot } from '../../server/boot';
import { loadConfig } from '../../server/config';
import { routeLeads } from '../../server/services/delivery/engine';
import {
  addRules,
  buildServer,
  freshDatabase,
  heatings,
  intakeLoad,
  percentile,
  randomStream,
  RULES,
  seedWorld,
  startServer,
  type World,
} from './delivery-load';
import type { BenchResult } from './run';

const SECONDS = Number(process.env.BENCH_DELIVERY_SECONDS ?? 20);
const RATE = 50;
const CHOICE_SAMPLES = 200;

export default async function deliveryBench(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-delivery-'));
  const databaseUrl = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : undefined;
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'error', TRUST_PROXY: '1' },
    { DATABASE_URL: databaseUrl, pgliteDir: databaseUrl ? undefined : join(dataDir, 'pglite'), seedDemo: false },
  );
  const server = await boot(config, { logger: false });
  const { db } = server.ctx;
  let world: World;
  let with10: number[] = [];
  let with1000: number[] = [];
  let batchPerLead = NaN;
  const stream = randomStream();
  const { pick } = stream;
  /** Each choice lead a new person: no customer passes one over as already bought. */
  let person = 0;
  try {
    world = await seedWorld(db);
    // 1. Rule choice with 10 rules, then with 1,000: leads inserted as of yesterday (no sweep), routed
    // one by one. The 10 rules take every landing everywhere, so that each lead has candidates in
    // both cases (about 10 with 10 rules, about 8 with 1,000) and is delivered: the same work.
    const lead = async (i: number) => {
      const landing = pick(world.landings);
      const code = pick(world.codes);
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO leads (landing_id, created_at, departement, data) VALUES ($1, now() - interval '2 days', $2, $3) RETURNING id`,
        [
          landing.id,
          code.startsWith('97') ? code.slice(0, 3) : code.startsWith('20') ? (Number(code) < 20200 ? '2A' : '2B') : code.slice(0, 2),
          JSON.stringify({
            nom: 'Bench',
            telephone: `07${String(10_000_000 + ++person).padStart(8, '0')}`,
            code_postal: code,
            chauffage: pick(heatings),
            surface: 50 + i,
          }),
        ],
      );
      return rows[0].id;
    };
    const choice = async () => {
      const times: number[] = [];
      for (let i = 0; i < CHOICE_SAMPLES; i++) {
        const id = await lead(i);
        const started = performance.now();
        await routeLeads(server.ctx, { leads: [id], offeredAt: new Date() });
        times.push(performance.now() - started);
      }
      return times;
    };
    const ten = await addRules(db, world, 10, stream, true);
    await choice(); // warm-up
    with10 = await choice();
    await db.query('DELETE FROM rules WHERE id = ANY($1::int[])', [ten]);
    await addRules(db, world, RULES, stream);
    await db.exec('ANALYZE rules; ANALYZE rule_targets; ANALYZE reports; ANALYZE rule_windows; ANALYZE lead_sales');
    with1000 = await choice();
    // The same leads' work as one batch (what the offer worker does with the leads waiting): the time per lead.
    const batch: number[] = [];
    for (let i = 0; i < CHOICE_SAMPLES; i++) batch.push(await lead(i));
    const started = performance.now();
    await routeLeads(server.ctx, { leads: batch, offeredAt: new Date() });
    batchPerLead = (performance.now() - started) / CHOICE_SAMPLES;
  } finally {
    await server.close();
  }

  // 2. 50 intakes a second to the server as it runs in production; latency from each answer to the engine's decision.
  buildServer();
  const server2 = await startServer({ dataDir, databaseUrl });
  try {
    const load = await intakeLoad([server2.base], world, RATE, SECONDS, stream);
    console.log(
      `  ${load.answered} intakes answered in ${load.sent.toFixed(1)} s (${load.failures} failed), ${load.decided} decided, ${load.delivered} delivered; ` +
        `choice p50 ${percentile(with10, 50).toFixed(1)} ms (10 rules) vs ${percentile(with1000, 50).toFixed(1)} ms (1,000 rules)`,
    );

    return [
      {
        name: `intake answer → assignment, ${RATE} intakes/s for ${SECONDS} s, ${RULES} rules (p95)`,
        value: percentile(load.latencies, 95),
        unit: 'ms',
        budget: 1000,
      },
      { name: 'intake answer → assignment (p50)', value: percentile(load.latencies, 50), unit: 'ms' },
      { name: 'intake answer time under that load (p95)', value: percentile(load.answerTimes, 95), unit: 'ms' },
      { name: 'intakes failed or refused', value: load.failures, unit: 'count', budget: 1 },
      { name: 'leads left undecided after 2 minutes', value: load.answered - load.decided, unit: 'count', budget: 1 },
      {
        name: 'rule choice for one lead, 1,000 rules (p50)',
        value: percentile(with1000, 50),
        unit: 'ms',
        peer: { name: '10 rules', value: percentile(with10, 50) },
      },
      {
        name: 'rule choice for one lead, 1,000 rules (p95)',
        value: percentile(with1000, 95),
        unit: 'ms',
        peer: { name: '10 rules', value: percentile(with10, 95) },
      },
      {
        name: `routing ${CHOICE_SAMPLES} leads as one batch, 1,000 rules, per lead`,
        value: batchPerLead,
        unit: 'ms',
        peer: { name: 'one by one (p50)', value: percentile(with1000, 50) },
      },
      { name: 'rule choice cost, 1,000 rules / 10 rules (p50)', value: percentile(with1000, 50) / percentile(with10, 50), unit: 'ratio', budget: 1.5 },
    ];
  } finally {
    await server2.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
