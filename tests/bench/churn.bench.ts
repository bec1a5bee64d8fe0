// A day of bulk writes on the bench database of leads.bench.ts (1,000,000 leads), then the
// queries of decisions.md §7 without a manual VACUUM (issue 30, "After a day of bulk writes"):
// 300,000 leads archived and their archiving undone, then sold in exports and put back to new,
// 100,000 at a time through the API. The server then restarts, as it does at a deployment or
// overnight: PGlite's statistics counters start from zero, and only the server's own
// maintenance (services/maintenance.ts: its vacuum and its rebuild of the list index at start)
// stands between the churn and the queries. The lead page, the statistics and the map's regions query for a year are measured
// before the churn, right after it and after the restart.
import type { ChildProcess } from 'node:child_process';
import { exportStorage } from '../../server/services/exports/extract';
import { loadConfig } from '../../server/config';
import { admin, dataDir, ensureDatabase, openBenchDb, quantile, startServer, type Fixture } from './leads.bench';
import type { BenchResult } from './run';

const CHURNED = 300_000;
const STEP = 100_000;
/** How long the restarted server may take to vacuum before the queries are measured anyway. */
const MAINTENANCE_WAIT_MS = 180_000;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function stop(proc: ChildProcess) {
  await new Promise((r) => {
    proc.once('exit', r);
    proc.kill('SIGTERM');
  });
}

const VACUUMED = 'leads vacuumed after bulk writes';
const REBUILT = 'leads_list_idx rebuilt';

/** Whether the server logged `line` (before it listened, or within `ms` after). */
function logged(server: { proc: ChildProcess; output: () => string }, line: string, ms: number): Promise<boolean> {
  if (server.output().includes(line)) return Promise.resolve(true);
  return new Promise((ok) => {
    const timer = setTimeout(() => ok(false), ms);
    server.proc.stdout!.on('data', (chunk: Buffer) => {
      if (!chunk.toString().includes(line)) return;
      clearTimeout(timer);
      ok(true);
    });
  });
}

/** Sizes of leads and of its list index, in MB. */
async function sizes() {
  const db = await openBenchDb();
  try {
    return (
      await db.query<{ table: number; list: number }>(
        `SELECT pg_relation_size('leads') / 1048576.0 AS table, pg_relation_size('leads_list_idx') / 1048576.0 AS list`,
      )
    ).rows[0]!;
  } finally {
    await db.close();
  }
}

export default async function churnBench(): Promise<BenchResult[]> {
  await ensureDatabase();
  const db = await openBenchDb();
  const landings = (await db.query<Fixture['landings'][number]>('SELECT id, columns FROM landings ORDER BY id')).rows;
  const churned = (await db.query<{ id: number }>("SELECT id FROM leads WHERE entry_status = 'new' ORDER BY id DESC LIMIT $1", [CHURNED])).rows.map(
    (r) => r.id,
  );
  const names = (await db.query<{ n: string }>("SELECT DISTINCT left(data->>'nom', 3) AS n FROM leads WHERE id % 997 = 0 LIMIT 40")).rows.map((r) => r.n);
  const map = (
    await db.query<{ category: string; ids: number[] }>(
      `SELECT g.category, array_agg(DISTINCT g.id) AS ids FROM leads l JOIN landings g ON g.id = l.landing_id
        WHERE l.created_at > now() - interval '1 year' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    )
  ).rows[0]!;
  const lastAction = (await db.query<{ id: number }>('SELECT coalesce(max(id), 0) AS id FROM lead_actions')).rows[0]!.id;
  await db.close();

  const results: BenchResult[] = [];
  const record = (...items: BenchResult[]) => {
    for (const r of items) console.error(`  … ${r.name}: ${r.value.toFixed(1)} ${r.unit}`);
    results.push(...items);
  };

  /** The three queries, over HTTP: filtered page p95 (37 requests), statistics worst of 6, regions query median of 10. */
  const measure = async (url: string, when: string, budgets: boolean) => {
    const token = (
      (await (await fetch(`${url}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) })).json()) as {
        token: string;
      }
    ).token;
    const timed = async (method: string, path: string) => {
      const started = performance.now();
      const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status}`);
      return performance.now() - started;
    };
    const landing = landings[0]!;
    const select = landing.columns.find((c) => c.type === 'select' && c.options?.length);
    const page: number[] = [];
    for (let i = 0; i < 40; i++) {
      const qs = new URLSearchParams({ _limit: '150', entry_status: 'new', 'filter[nom]': names[i % names.length] ?? 'ma' });
      if (select) qs.append(`in[${select.key}]`, select.options![i % select.options!.length]!);
      const ms = await timed('GET', `/api/landings/data/${landing.id}?${qs}`);
      if (i >= 3) page.push(ms);
    }
    const all = landings.map((l) => l.id).join(',');
    const stats: number[] = [];
    for (let i = 0; i < 6; i++) stats.push(await timed('GET', `/api/landings/data/departement/${all}/production/${day(-365)}/${day(0)}/${i % 2}`));
    const regionsQs = new URLSearchParams({ date_range: `${day(-364)}<>${day(0)}`, landings: map.ids.join(','), departement: 'FR-30,FR-34' });
    const regions: number[] = [];
    for (let i = 0; i < 10; i++) regions.push(await timed('POST', `/api/productions/${map.category}/regions/data?${regionsQs}`));
    record(
      { name: `${when}: lead page, 2 filters (p95)`, value: quantile(page, 0.95), unit: 'ms', budget: budgets ? 150 : undefined },
      { name: `${when}: statistics of a year, all landings (worst of 6)`, value: Math.max(...stats), unit: 'ms', budget: budgets ? 500 : undefined },
      { name: `${when}: regions query of a year (median of 10)`, value: quantile(regions, 0.5), unit: 'ms', budget: budgets ? 300 : undefined },
    );
    return token;
  };

  const exportIds: number[] = [];
  const freshSizes = await sizes();
  let server = await startServer({ LOG_LEVEL: 'info' });
  try {
    const token = await measure(server.url, 'before the churn', false);
    const call = async (path: string, body: unknown) => {
      const res = await fetch(server.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { data: { action_id?: number; count?: number } };
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json.data;
    };
    const started = performance.now();
    const all = landings.map((l) => l.id).join(',');
    for (let from = 0; from < churned.length; from += STEP) {
      const leads = churned.slice(from, from + STEP);
      const archived = await call('/api/landings/data', { entry_status: 'archived', from_status: 'new', leads });
      await call(`/api/landings/data/undo/${archived.action_id}`, {});
      await call(`/api/landings/data/${all}/export`, { bookType: 'csv', filename: 'bench-churn', leads, from_status: 'new', for_customer: 'Bench' });
      await call('/api/landings/data', { entry_status: 'new', from_status: 'extracted', leads });
    }
    record({
      name: `the churn: ${CHURNED.toLocaleString('en-US')} leads archived, undone, sold and put back`,
      value: (performance.now() - started) / 1000,
      unit: 's',
    });
    await measure(server.url, 'right after the churn', false);
    record({ name: 'vacuums of its ten-minute maintenance during the churn', value: server.output().split(VACUUMED).length - 1, unit: 'count' });
  } finally {
    await stop(server.proc);
  }

  const churnedSizes = await sizes();
  record(
    { name: 'after the churn: leads_list_idx', value: churnedSizes.list, unit: 'MB', peer: { name: 'before the churn', value: freshSizes.list } },
    { name: 'after the churn: leads', value: churnedSizes.table, unit: 'MB', peer: { name: 'before the churn', value: freshSizes.table } },
  );
  server = await startServer({ LOG_LEVEL: 'info' });
  try {
    // The first server's ten-minute vacuum may have come first: then this one finds nothing to do.
    const [vacuumed, rebuilt] = await Promise.all([logged(server, VACUUMED, MAINTENANCE_WAIT_MS), logged(server, REBUILT, MAINTENANCE_WAIT_MS)]);
    record(
      { name: 'after the restart: its maintenance vacuumed leads (1 yes, 0 no)', value: vacuumed ? 1 : 0, unit: 'count' },
      { name: 'after the restart: its maintenance rebuilt leads_list_idx (1 yes, 0 no)', value: rebuilt ? 1 : 0, unit: 'count' },
    );
    await measure(server.url, 'after the restart and its maintenance', true);
  } finally {
    await stop(server.proc);
  }

  record({ name: 'after the restart: leads_list_idx', value: (await sizes()).list, unit: 'MB', peer: { name: 'before the churn', value: freshSizes.list } });
  const after = await openBenchDb();
  try {
    const storage = exportStorage(loadConfig({ ...process.env, DATA_DIR: dataDir }));
    const { rows } = await after.query<{ id: number; storage_key: string }>("SELECT id, storage_key FROM exports WHERE filename LIKE 'bench-churn%'");
    for (const r of rows) {
      exportIds.push(r.id);
      await storage.remove(r.storage_key);
    }
    await after.query('DELETE FROM exports WHERE id = ANY($1::int[])', [exportIds]);
    await after.query('DELETE FROM lead_actions WHERE id > $1', [lastAction]);
  } finally {
    await after.close();
  }
  return results;
}
