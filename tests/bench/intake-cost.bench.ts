// What one intake costs the server (issues 28, 30): the server's CPU time (user + system, read from
// /proc) and, on PostgreSQL, the statements it sends (pg_stat_statements, when the server has it
// loaded), per intake, over BENCH_COST_INTAKES (default 400) intakes at 40 a second against
// delivery-load.ts's world of 1,000 rules, counted until the server is idle again (every lead
// routed, every mail written). Wall-clock figures move with the machine's load; these much less,
// so they compare two versions on a shared machine.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { buildServer, freshDatabase, postIntake, prepareWorld, randomStream, startServer } from './delivery-load';
import type { BenchResult } from './run';

const INTAKES = Number(process.env.BENCH_COST_INTAKES ?? 400);
const RATE = 40;
/** Clock ticks a second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Resolves once the server spends less than 3% of a second's CPU in a second (its pollers only). */
async function idle(pid: number): Promise<void> {
  for (let before = cpuMs(pid); ;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuMs(pid);
    if (now - before <= 30) return;
    before = now;
  }
}

async function statements(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `SELECT coalesce(sum(calls), 0) AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    return Number(rows[0]!.n);
  } catch {
    return undefined; // pg_stat_statements not loaded by this server
  } finally {
    await client.end();
  }
}

async function measure(setup: string, databaseUrl: string | undefined): Promise<BenchResult[]> {
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements').catch(() => undefined);
    await client.end();
  }
  const { dataDir, world } = await prepareWorld(databaseUrl);
  const server = await startServer({ dataDir, databaseUrl });
  const stream = randomStream(13);
  try {
    // A warm-up (the bundle's code compiled, the plans cached), then the measured intakes.
    for (let n = 0; n < 40; n++) await postIntake(server.base, stream.pick(world.landings).key, n, world, stream);
    await idle(server.pid);
    const cpu = cpuMs(server.pid);
    const sent = databaseUrl ? await statements(databaseUrl) : undefined;
    const started = Date.now();
    const posts: Array<Promise<number>> = [];
    for (let i = 0; i < INTAKES; i++) {
      const wait = started + (i * 1000) / RATE - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      posts.push(postIntake(server.base, stream.pick(world.landings).key, 40 + i, world, stream).then((res) => res.status));
    }
    const refused = (await Promise.all(posts)).filter((s) => s !== 201).length;
    await idle(server.pid);
    // The idle check's own last second of pollers is counted too: small beside the intakes.
    const perIntake = (cpuMs(server.pid) - cpu) / INTAKES;
    const after = databaseUrl && sent !== undefined ? await statements(databaseUrl) : undefined;
    console.log(`  ${setup}: ${INTAKES} intakes, ${refused} refused, server CPU ${perIntake.toFixed(2)} ms each`);
    const results: BenchResult[] = [{ name: `server CPU per intake, ${setup} (routing and mail included)`, value: perIntake, unit: 'ms', decimals: 2 }];
    if (after !== undefined && sent !== undefined)
      results.push({ name: `statements per intake, ${setup} (pg_stat_statements)`, value: (after - sent) / INTAKES, unit: 'count', decimals: 1 });
    return results;
  } finally {
    await server.stop();
  }
}

export default async function intakeCostBench(): Promise<BenchResult[]> {
  buildServer();
  const results = await measure('PGlite', undefined);
  if (process.env.DATABASE_URL) results.push(...(await measure('PostgreSQL', await freshDatabase(process.env.DATABASE_URL))));
  return results;
}
