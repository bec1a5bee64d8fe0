import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/connection';
import { DEMO_ACCOUNTS } from '../../server/db/seed-data';
import type { Landing } from '../../src/api/landings/contract';
import { cpuSeconds } from '../support/cpu';
import { throwawayPostgres } from '../support/postgres';
import { leadsOfExports, leadTotals, reconcile, type LeadTotals } from '../support/reconcile';
import { seedProcess } from '../support/seed-process';
import { startServerProcess, type ServerProcess } from '../support/server-process';
import { loadRequests, type LoadFixture, type Session } from './mix';
import { markdownTables, Tally, type RunFigures } from './tally';

// `LOAD_SECONDS=10 npm run test:load` to try it short; the figures of docs/performance.md are 60 s.
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
/** `LOAD_CPU_PROFILE=<folder>`: the servers write their CPU profiles there (node --cpu-prof) when they stop. */
const CPU_PROFILE = process.env.LOAD_CPU_PROFILE;
const profiled = CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE}`] : [];
/** Leads added to the demo's 20,000 before the run. */
const EXTRA_LEADS = Number(process.env.LOAD_EXTRA_LEADS ?? 80_000);
/** One client in five is an administrator (who also reads the rules' reports). */
const ADMIN_EVERY = 5;
/** The intake limit: posts per address and minute, all instances together. */
const INTAKE_PER_MINUTE = 60;

const runs: RunFigures[] = [];

/** Prints how long after its start each step of a run ended. */
const stepTimer = (name: string) => {
  const started = Date.now();
  return (step: string) => console.log(`${name}: ${step} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
};

afterAll(() => {
  if (!runs.length) return;
  const section = loadSection(runs);
  const file = join(tmpdir(), 'lead-console-load.md');
  writeFileSync(file, section + '\n');
  console.log(`\n${section}\n\n(also in ${file})`);
});

describe(`load: ${CONNECTIONS} signed-in clients for ${SECONDS} s`, () => {
  it('one server on PGlite', async () => {
    const step = stepTimer('PGlite');
    const dataDir = mkdtempSync(join(tmpdir(), 'load-pglite-'));
    const env = { DATA_DIR: dataDir, TRUST_PROXY: '1', SEED_DEMO: '0' };
    await seedProcess(env, EXTRA_LEADS);
    const before = await onPglite(dataDir, snapshot);
    step(`${before.totals.total} leads seeded`);

    const server = await startServerProcess(env, profiled);
    step('server ready');
    let run: Awaited<ReturnType<typeof drive>>;
    try {
      run = await drive([server], step);
    } finally {
      // PGlite's folder has one user at a time: the server goes before the database is read.
      await server.kill('SIGTERM');
    }
    await onPglite(dataDir, (db) => verify(db, before, run, [server]));
    step('reconciled');
    runs.push({
      name: 'PGlite, 1 instance',
      instances: 1,
      database: 'PGlite (embedded)',
      leads: before.totals.total,
      connections: CONNECTIONS,
      seconds: SECONDS,
      serverCpuSeconds: run.serverCpuSeconds,
      tally: run.tally,
    });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('two servers on one PostgreSQL', async () => {
    const step = stepTimer('PostgreSQL');
    const pg = await throwawayPostgres();
    const dataDir = mkdtempSync(join(tmpdir(), 'load-pg-'));
    try {
      // One DATA_DIR for both: the export files on a shared volume, so either instance serves any download.
      const env = { DATABASE_URL: pg.url, DATA_DIR: dataDir, TRUST_PROXY: '1', SEED_DEMO: '0' };
      await seedProcess(env, EXTRA_LEADS);
      step('seeded');
      const servers = [await startServerProcess(env, profiled), await startServerProcess(env, profiled)];
      step('servers ready');
      const db = await openDb({ databaseUrl: pg.url });
      try {
        const before = await snapshot(db);
        let run: Awaited<ReturnType<typeof drive>>;
        try {
          run = await drive(servers, step, () => pg.cpuSeconds());
        } finally {
          await Promise.all(servers.map((s) => s.kill('SIGTERM')));
        }
        await verify(db, before, run, servers);
        step('reconciled');
        const version = (await db.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0].v.split(' ')[0];
        runs.push({
          name: 'PostgreSQL, 2 instances',
          instances: 2,
          database: `PostgreSQL ${version}`,
          leads: before.totals.total,
          connections: CONNECTIONS,
          seconds: SECONDS,
          serverCpuSeconds: run.serverCpuSeconds,
          databaseCpuSeconds: run.databaseCpuSeconds,
          tally: run.tally,
        });
      } finally {
        await db.close();
      }
    } finally {
      pg.remove();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
});

/** The totals before the run, and the last lead and export then. */
async function snapshot(db: Db) {
  const { rows } = await db.query<{ lead: number; export: number }>(
    'SELECT (SELECT coalesce(max(id), 0) FROM leads)::int AS lead, (SELECT coalesce(max(id), 0) FROM exports)::int AS export',
  );
  return { totals: await leadTotals(db), maxLeadId: rows[0].lead, maxExportId: rows[0].export };
}
type Snapshot = { totals: LeadTotals; maxLeadId: number; maxExportId: number };

async function onPglite<T>(dataDir: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb({ pgliteDir: join(dataDir, 'pglite') });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * Signs the clients in (spread over the servers), then runs the mix on all servers at once;
 * `databaseCpu`: a database of its own (PostgreSQL), whose CPU is measured beside the servers'.
 */
async function drive(servers: ServerProcess[], step: (what: string) => void, databaseCpu?: () => number) {
  const serverCpu = () => servers.reduce((sum, s) => sum + cpuSeconds(s.proc.pid!), 0);
  const urls = servers.map((s) => s.url);
  const sessions = await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i): Promise<Session> => {
      const admin = i % ADMIN_EVERY === 0;
      const account = DEMO_ACCOUNTS[admin ? 0 : 1];
      return { token: await servers[i % servers.length].login(account.email, account.password), admin };
    }),
  );
  const fixture = await loadFixture(urls[0], sessions);
  step('clients signed in');
  const tally = new Tally();
  const cpuBefore = serverCpu();
  const databaseBefore = databaseCpu?.();
  // autocannon's own duration is only a backstop: the tally stops the run once the last answer is in.
  const instance = autocannon({ url: urls, connections: CONNECTIONS, duration: SECONDS + 60, timeout: 30, requests: loadRequests(fixture, tally) });
  tally.open(SECONDS, () => instance.stop());
  const result = await instance;
  const serverCpuSeconds = serverCpu() - cpuBefore;
  const databaseCpuSeconds = databaseCpu && databaseBefore !== undefined ? databaseCpu() - databaseBefore : undefined;
  step('load done');
  return { tally, result, tag: fixture.tag, serverCpuSeconds, databaseCpuSeconds };
}

async function loadFixture(url: string, sessions: Session[]): Promise<LoadFixture> {
  const get = async <T>(path: string, token: string) => {
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return ((await res.json()) as { data: T }).data;
  };
  const staff = sessions.find((s) => !s.admin) ?? sessions[0];
  const admin = sessions.find((s) => s.admin);
  const landings = [...(await get<Landing[]>('/api/landings', staff.token)), ...(await get<Landing[]>('/api/landings_facebook', staff.token))];
  const rules = admin ? await get<Array<{ id: number }>>('/api/customers/rules', admin.token) : [];
  return {
    sessions,
    landings: landings.map((l) => ({ id: l.id, key: l.key, category: l.category, columns: l.columns })),
    ruleIds: rules.map((r) => r.id),
    tag: `charge-${Date.now().toString(36)}`,
  };
}

/**
 * No 5xx and nothing unexpected; then, on the database at rest, the totals reconcile exactly:
 * statuses, monthly statistics, rule counters and exports (reconcile()), every lead added is
 * one the intake accepted, every export answered is one recorded with exactly the leads of its
 * file, and the flooding address got no more than the shared limit.
 */
async function verify(db: Db, before: Snapshot, run: Awaited<ReturnType<typeof drive>>, servers: ServerProcess[]) {
  const { tally, result } = run;
  const logs = servers.map((s) => s.output.slice(-3000)).join('\n');
  console.log(
    `${servers.length} instance(s): ${tally.responses} answers in ${tally.seconds.toFixed(1)} s, ${tally.accepted} intakes accepted, ${tally.exports.size} exports`,
  );
  expect(tally.serverErrors, logs).toBe(0);
  expect(tally.unexpected, logs).toEqual([]);
  expect(result.errors + result.timeouts, 'connection errors and timeouts').toBe(0);
  expect(tally.count((k, s) => k === 'list' && s === 200)).toBeGreaterThan(0);

  const { totals, problems } = await reconcile(db, { exportsAfter: before.maxExportId });
  expect(problems).toEqual([]);
  expect(totals.total).toBe(before.totals.total + tally.accepted);
  const sold = [...tally.exports.values()].reduce((a, b) => a + b, 0);
  expect(totals.exportCounts - before.totals.exportCounts).toBe(sold);
  const intake = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE utm_campaign = $1 AND id > $2', [run.tag, before.maxLeadId]);
  expect(intake.rows[0].n).toBe(tally.accepted);
  const windows = Math.ceil(SECONDS / 60) + 1;
  expect(tally.flooderAccepted).toBeLessThanOrEqual(INTAKE_PER_MINUTE * windows);

  const recorded = await db.query<{ token: string; count: number }>('SELECT token, count FROM exports WHERE id > $1 AND NOT big_export', [before.maxExportId]);
  expect(new Map(recorded.rows.map((e) => [e.token, e.count]))).toEqual(tally.exports);
  const inFiles = await leadsOfExports(db, [...tally.files.keys()]);
  for (const [token, ids] of tally.files)
    expect(
      [...ids].sort((a, b) => a - b),
      `file of export ${token}`,
    ).toEqual(inFiles.get(token));
}

function loadSection(figures: RunFigures[]): string {
  const cpu = cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  return [
    '## Load (`npm run test:load`, `tests/load/load.test.ts`)',
    '',
    `Measured on ${new Date().toISOString().slice(0, 10)}, ${machine}, servers as child processes (\`node --import tsx server/main.ts\`), the load generator on the same machine. ${CONNECTIONS} signed-in`,
    `clients (one in ${ADMIN_EVERY} an administrator) for ${SECONDS} s on loopback with autocannon; each client loops over a visit of 20`,
    'requests (`tests/load/mix.ts`): 10 reads (a lead page of the new tab in a sort the user picks, the next two pages by cursor,',
    'a department and name filter and its exact count, a date filter, a page further on, the archived or bad tab, department',
    "statistics, the production map or, for an administrator, a rule's reports), 2 status changes each undone at once (archive or",
    'mark bad 5 leads of the first page, mark new 3 of the tab), an export of 3 leads in csv and its download, and 4 posts to the',
    'public intake from new addresses, one in four from one address that floods it (429 beyond 60 a minute, expected). A 409 on',
    'an export: its leads were sold meanwhile (another client, the delivery engine). Database: the demo plus',
    `\`npm run seed -- --leads ${EXTRA_LEADS}\`. Afterwards the totals reconcile exactly: leads = sum over statuses = monthly statistics,`,
    "each rule's day counter = the leads delivered under it, each export's count = its leads = the ids in its file, leads added =",
    'intakes accepted. Latencies per request, from sending to the last byte; no answer was a 5xx. Server CPU: user + system time of',
    'the server processes during the run (/proc/<pid>/stat, what their process.cpuUsage() reports), all instances together;',
    "database CPU: the same for PostgreSQL's postmaster and backends, ended ones included (PGlite's is in the server's).",
    '`npm run test:load` prints this section ready to paste (and writes it to `$TMPDIR/lead-console-load.md`).',
    '',
    markdownTables(figures),
  ].join('\n');
}
