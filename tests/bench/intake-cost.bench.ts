// What one intake costs the server (issues 28, 30): CPU time (user + system, from /proc) of the
// server's JavaScript thread and of its busiest other thread (PGlite's, on PGlite), and, on
// PostgreSQL, the statements it sends (pg_stat_statements, when the server preloads it), per
// intake, over BENCH_COST_INTAKES (default 400) intakes at BENCH_COST_RATE (default 40) a second
// against delivery-load.ts's world of 1,000 rules, counted until the server is back to its idle
// rate (every lead routed, every mail written), less that idle rate (its pollers) over the time.
// Wall-clock figures move with the machine's load; these much less, so they compare versions.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import { buildServer, decided, freshDatabase, postIntake, prepareWorld, randomStream, startServer } from './delivery-load';
import type { BenchResult } from './run';

const INTAKES = Number(process.env.BENCH_COST_INTAKES ?? 400);
const RATE = Number(process.env.BENCH_COST_RATE ?? 40);
/** Clock ticks a second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** CPU time (ms) of each thread of the process, by thread id. */
function threads(pid: number): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    cpu.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * TICK_MS);
  }
  return cpu;
}
const total = (cpu: Map<number, number>) => [...cpu.values()].reduce((a, b) => a + b, 0);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The process's CPU per second of wall clock over `ms`. */
async function rate(pid: number, ms: number): Promise<number> {
  const before = total(threads(pid));
  await pause(ms);
  return ((total(threads(pid)) - before) * 1000) / ms;
}

async function statements(url: string): Promise<Array<{ query: string; calls: number }> | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ query: string; calls: string }>(
      `SELECT query, calls FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY calls DESC`,
    );
    return rows.map((r) => ({ query: r.query, calls: Number(r.calls) }));
  } catch {
    return undefined; // pg_stat_statements not loaded by this server
  } finally {
    await client.end();
  }
}

async function resetStatements(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements').catch(() => undefined);
  await client.query('SELECT pg_stat_statements_reset()').catch(() => undefined);
  await client.end();
}

async function measure(setup: string, databaseUrl: string | undefined): Promise<BenchResult[]> {
  const { dataDir, world } = await prepareWorld(databaseUrl);
  const server = await startServer({ dataDir, databaseUrl });
  const stream = randomStream(13);
  try {
    // A warm-up (the bundle's code compiled, the plans cached), then the pollers' own rate.
    await Promise.all(Array.from({ length: 40 }, (_, n) => postIntake(server.base, stream.pick(world.landings).key, n, world, stream)));
    await pause(5000);
    const idleRate = await rate(server.pid, 5000);
    if (databaseUrl) await resetStatements(databaseUrl);
    const before = threads(server.pid);
    const started = Date.now();
    const posts: Array<Promise<{ status: number; landing: number; id?: number }>> = [];
    for (let i = 0; i < INTAKES; i++) {
      const wait = started + (i * 1000) / RATE - Date.now();
      if (wait > 0) await pause(wait);
      const landing = stream.pick(world.landings);
      posts.push(
        postIntake(server.base, landing.key, 40 + i, world, stream).then(async (res) => ({
          status: res.status,
          landing: landing.id,
          id: res.status === 201 ? ((await res.json()) as { data: { id: number } }).data.id : undefined,
        })),
      );
    }
    const answers = await Promise.all(posts);
    const refused = answers.filter((a) => a.status !== 201).length;
    // The engine routes in arrival order: the last lead decided, every lead is. On a loaded machine
    // the server's CPU rate alone cannot tell finished from starved.
    const last = answers.filter((a) => a.id !== undefined).sort((a, b) => b.id! - a.id!)[0]!;
    await decided(server.base, last.landing, last.id!);
    // Then its mails: back to the idle rate (give or take a twentieth of a core) for three seconds running.
    for (let quiet = 0, deadline = Date.now() + 120_000; quiet < 3 && Date.now() < deadline;)
      quiet = (await rate(server.pid, 1000)) <= idleRate + 50 ? quiet + 1 : 0;
    const after = threads(server.pid);
    const elapsed = Date.now() - started;
    const spent = (tid: number) => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
    const others = [...after.keys()].filter((tid) => tid !== server.pid).map(spent);
    const perIntake = (total(after) - total(before) - (idleRate * elapsed) / 1000) / INTAKES;
    const main = spent(server.pid) / INTAKES;
    const busiest = Math.max(...others) / INTAKES;
    console.log(
      `  ${setup}: ${INTAKES} intakes at ${RATE}/s, ${refused} refused, idle ${idleRate.toFixed(0)} ms/s, done in ${(elapsed / 1000).toFixed(1)} s; ` +
        `CPU per intake ${perIntake.toFixed(2)} ms (JavaScript thread ${main.toFixed(2)}, busiest other ${busiest.toFixed(2)}, idle rate not taken off these two)`,
    );
    const results: BenchResult[] = [
      { name: `server CPU per intake, ${setup} (routing and mail included, pollers' idle rate taken off)`, value: perIntake, unit: 'ms', decimals: 2 },
      { name: `  of which the JavaScript thread, ${setup}`, value: main, unit: 'ms', decimals: 2 },
      { name: `  the busiest other thread (PGlite's on PGlite), ${setup}`, value: busiest, unit: 'ms', decimals: 2 },
    ];
    const sent = databaseUrl ? await statements(databaseUrl) : undefined;
    if (sent) {
      const calls = sent.reduce((n, s) => n + s.calls, 0);
      for (const s of sent.slice(0, 15)) console.log(`    ${(s.calls / INTAKES).toFixed(2)}  ${s.query.replace(/\s+/g, ' ').slice(0, 140)}`);
      results.push({ name: `statements per intake, ${setup} (pg_stat_statements, pollers included)`, value: calls / INTAKES, unit: 'count', decimals: 1 });
    }
    return results;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function intakeCostBench(): Promise<BenchResult[]> {
  buildServer();
  const results = await measure('PGlite', undefined);
  if (process.env.DATABASE_URL) results.push(...(await measure('PostgreSQL', await freshDatabase(process.env.DATABASE_URL))));
  return results;
}
