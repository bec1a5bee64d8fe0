// The engine's capacity (issue 30): intakes at 25, 50, 100, 200 and 400 a second, BENCH_RAMP_SECONDS
// (default 20) each, against delivery-load.ts's world of 1,000 rules, until the intake answer p95 or
// the answer → assignment p95 passes 1 s; reports the highest rate held. On PGlite (one instance),
// and, given DATABASE_URL, on PostgreSQL with one and with two instances (a new database each).
import { rmSync } from 'node:fs';
import { buildServer, freshDatabase, intakeLoad, percentile, prepareWorld, randomStream, startServer } from './delivery-load';
import type { BenchResult } from './run';

const RATES = [25, 50, 100, 200, 400];
const SECONDS = Number(process.env.BENCH_RAMP_SECONDS ?? 20);
const LIMIT_MS = 1000;

/** Climbs the rates on `instances` servers sharing one database: the highest rate whose both p95 stayed under 1 s. */
async function ramp(setup: string, instances: number, databaseUrl: string | undefined): Promise<number> {
  const { dataDir, world } = await prepareWorld(databaseUrl);
  const servers = [];
  for (let i = 0; i < instances; i++) servers.push(await startServer({ dataDir, databaseUrl }));
  const stream = randomStream(11);
  let held = 0;
  let first = 0;
  try {
    for (const rate of RATES) {
      const load = await intakeLoad(
        servers.map((s) => s.base),
        world,
        rate,
        SECONDS,
        stream,
        first,
      );
      first += rate * SECONDS;
      const answer = percentile(load.answerTimes, 95);
      const assignment = percentile(load.latencies, 95);
      const ok = answer < LIMIT_MS && assignment < LIMIT_MS && load.failures === 0 && load.decided === load.answered;
      console.log(
        `  ${setup}: ${rate}/s — answer p95 ${answer.toFixed(0)} ms, answer → assignment p50 ${percentile(load.latencies, 50).toFixed(0)} ms, ` +
          `p95 ${assignment.toFixed(0)} ms; ${load.answered} answered in ${load.sent.toFixed(1)} s, ${load.failures} failed, ` +
          `${load.decided} decided, ${load.delivered} delivered${ok ? '' : ' — over'}`,
      );
      if (!ok) break;
      held = rate;
    }
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return held;
}

export default async function deliveryRampBench(): Promise<BenchResult[]> {
  buildServer();
  const results: BenchResult[] = [
    { name: 'highest intake rate held, PGlite, one instance (intakes/s)', value: await ramp('PGlite', 1, undefined), unit: 'count' },
  ];
  const postgres = process.env.DATABASE_URL;
  if (postgres) {
    for (const instances of [1, 2])
      results.push({
        name: `highest intake rate held, PostgreSQL, ${instances === 1 ? 'one instance' : 'two instances'} (intakes/s)`,
        value: await ramp(`PostgreSQL ×${instances}`, instances, await freshDatabase(postgres)),
        unit: 'count',
      });
  }
  return results;
}
