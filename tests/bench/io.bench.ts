// Bulk input and output against the database's own speed (issue 30), on the bench database of
// leads.bench.ts (1,000,000 leads; DATABASE_URL for PostgreSQL):
// - custom csv exports (request to file, the server as a child process) of the last ~100,000
//   leads and of every lead, against `COPY (SELECT <the file's columns>) TO STDOUT` of the same
//   rows in the same run; the server's peak resident memory during each export;
// - an import of 100,000 rows over HTTP against `COPY leads FROM STDIN` of the same rows.
// On PGlite, COPY goes through its '/dev/blob' device (its COPY TO STDOUT / FROM STDIN); on
// PostgreSQL through psql. Everything written is removed afterwards.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteSettings } from '../../server/db/connection';
import { pgliteExtensions } from '../../server/db/pglite-extensions.mjs';
import { exportStorage } from '../../server/services/exports/extract';
import { loadConfig } from '../../server/config';
import type { BigExportJob } from '../../src/api/exports/contract';
import { admin, benchRow, currentRss, databaseUrl, dataDir, ensureDatabase, openBenchDb, peakRss, resetPeak, startServer, type Fixture } from './leads.bench';
import type { BenchResult } from './run';
import { cpuSeconds } from '../support/cpu';

/** The columns of an export file, as `fileRowSql` reads them. */
const fileColumnsSql = `id, to_char(created_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM-DD HH24:MI:SS'), data,
  departement, zone_climatique, source, utm_source, utm_medium, utm_campaign`;
const inDays = (start: string, end: string) =>
  `created_at >= '${start}'::date::timestamp AT TIME ZONE 'Europe/Paris' AND created_at < ('${end}'::date + 1)::timestamp AT TIME ZONE 'Europe/Paris'`;
const copyColumns = 'landing_id, utm_medium, phone, email, departement, zone_climatique, data';
const IMPORT_ROWS = 100_000;

interface Copier {
  /** Seconds `COPY (sql) TO STDOUT` takes, its output read whole and dropped. */
  out(sql: string): Promise<number>;
  /** Seconds `COPY leads (copyColumns) FROM STDIN (FORMAT csv)` of `csv` takes. */
  in(csv: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * On PostgreSQL, a checkpoint before each timed bulk write (COPY FROM and the import): the WAL of
 * the writes before it (this run's exports, the last run's rows and their removal) then starts
 * none during it, whichever of the two it would have fallen on (COPY FROM of the same rows took
 * 1.9 to 2.9 s from one run to the next without).
 */
function checkpoint() {
  if (databaseUrl) execFileSync('psql', [databaseUrl, '-qAt', '-c', 'CHECKPOINT'], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function copier(): Promise<Copier> {
  const timed = async (fn: () => Promise<unknown> | unknown) => {
    const started = performance.now();
    await fn();
    return (performance.now() - started) / 1000;
  };
  if (databaseUrl) {
    const url = databaseUrl;
    const psql = (sql: string, input?: string) =>
      execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAt', '-c', sql], { input, maxBuffer: 2 ** 31 - 1, stdio: ['pipe', 'ignore', 'inherit'] });
    return {
      out: (sql) => timed(() => psql(`COPY (${sql}) TO STDOUT`)),
      in: (csv) => timed(() => psql(`COPY leads (${copyColumns}) FROM STDIN (FORMAT csv)`, csv)),
      close: async () => undefined,
    };
  }
  const db = await PGlite.create(resolve(dataDir, 'pglite'), {
    extensions: pgliteExtensions,
    startParams: [...PGlite.defaultStartParams, ...pgliteSettings.flatMap((s) => ['-c', s])],
  });
  return {
    out: (sql) => timed(() => db.query(`COPY (${sql}) TO '/dev/blob'`).then((r) => r.blob?.arrayBuffer())),
    in: (csv) => timed(() => db.query(`COPY leads (${copyColumns}) FROM '/dev/blob' (FORMAT csv)`, [], { blob: new Blob([csv]) })),
    close: () => db.close(),
  };
}

const csvField = (v: unknown) => `"${String(v).replace(/"/g, '""')}"`;

export default async function ioBench(): Promise<BenchResult[]> {
  await ensureDatabase();
  const db = await openBenchDb();
  const landings = (await db.query<Fixture['landings'][number]>('SELECT id, columns FROM landings ORDER BY id')).rows;
  const days = (
    await db.query<{ first: string; last: string; recent: string }>(
      `SELECT (min(created_at) AT TIME ZONE 'Europe/Paris')::date::text AS first, (max(created_at) AT TIME ZONE 'Europe/Paris')::date::text AS last,
              (SELECT (created_at AT TIME ZONE 'Europe/Paris')::date::text FROM leads ORDER BY created_at DESC OFFSET 99999 LIMIT 1) AS recent FROM leads`,
    )
  ).rows[0]!;
  const ranges = [
    { start: days.recent, end: days.last },
    { start: days.first, end: days.last },
  ];
  const counts = await Promise.all(
    ranges.map(async (r) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads WHERE ${inDays(r.start, r.end)}`)).rows[0]!.n),
  );
  await db.close();

  const importLanding = landings[landings.length - 1]!;
  const importRows = Array.from({ length: IMPORT_ROWS }, (_, i) => benchRow(importLanding.columns, i));
  const copyCsv = importRows
    .map((r) =>
      [importLanding.id, 'bench-copy', r.telephone, r.email, String(r.code_postal ?? '').slice(0, 2), 'H1', JSON.stringify(r)].map(csvField).join(','),
    )
    .join('\n');

  // The database's own speed first, while this process has it to itself.
  const copy = await copier();
  const copyOut: number[] = [];
  let copyIn: number;
  try {
    for (const r of ranges) copyOut.push(await copy.out(`SELECT ${fileColumnsSql} FROM leads WHERE ${inDays(r.start, r.end)} ORDER BY id`));
    checkpoint();
    copyIn = await copy.in(copyCsv);
  } finally {
    await copy.close();
  }
  const cleanup = await openBenchDb();
  await cleanup.query("DELETE FROM leads WHERE utm_medium = 'bench-copy'");
  // Vacuumed now, not by the server's maintenance at its start, during the timed exports.
  await cleanup.exec('VACUUM ANALYZE leads');
  await cleanup.close();

  const results: BenchResult[] = [];
  const record = (...items: BenchResult[]) => {
    for (const r of items) console.error(`  … ${r.name}: ${r.value.toFixed(1)} ${r.unit}`);
    results.push(...items);
  };
  const server = await startServer();
  const pid = server.proc.pid!;
  const exportIds: number[] = [];
  try {
    const call = async <T>(method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(server.url + path, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
      return (await res.json()) as T;
    };
    const token = (await call<{ token: string }>('POST', '/api/auth', undefined, admin)).token;
    const all = landings.map((l) => l.id).join(',');
    for (const [i, r] of ranges.entries()) {
      const before = currentRss(pid);
      resetPeak(pid);
      const cpu = cpuSeconds(pid);
      const started = performance.now();
      let job = (
        await call<{ data: BigExportJob }>(
          'POST',
          `/api/generate_big_export?landings=${all}&status=new,extracted,archived,trashed,converted,duplicate&start=${r.start}&end=${r.end}&format=csv`,
          token,
        )
      ).data;
      while (job.state === 'queued' || job.state === 'running') {
        await new Promise((ok) => setTimeout(ok, 100));
        job = (await call<{ data: BigExportJob }>('GET', `/api/big_exports/${job.id}`, token)).data;
      }
      const seconds = (performance.now() - started) / 1000;
      const exportCpu = cpuSeconds(pid) - cpu;
      if (job.state !== 'done' || job.total !== counts[i]) throw new Error(`custom export ${job.state} (${job.total} of ${counts[i]}): ${job.error}`);
      if (job.export) exportIds.push(job.export.id);
      const what = `csv export of ${counts[i]!.toLocaleString('en-US')} leads (custom export, request to file)`;
      record(
        { name: what, value: seconds, unit: 's', peer: { name: 'COPY (SELECT the same columns) TO STDOUT', value: copyOut[i]! } },
        { name: `${what} / COPY TO`, value: seconds / copyOut[i]!, unit: 'ratio', budget: 3 },
        {
          name: `server CPU during the csv export of ${counts[i]!.toLocaleString('en-US')} leads (its polls included)`,
          value: exportCpu,
          unit: 's',
          decimals: 2,
        },
        {
          name: `server peak RSS during the csv export of ${counts[i]!.toLocaleString('en-US')} leads (${before.toFixed(0)} MB before)`,
          value: peakRss(pid),
          unit: 'MB',
          budget: 300,
        },
      );
    }

    // Its body written before the clock starts, as COPY's csv is.
    const importBody = JSON.stringify({ form_import_from: 'bench-io-import', data: importRows });
    checkpoint();
    const started = performance.now();
    await call('POST', `/api/landings/${importLanding.id}/import/excel`, token, importBody);
    const seconds = (performance.now() - started) / 1000;
    record(
      {
        name: `import of ${IMPORT_ROWS.toLocaleString('en-US')} rows (HTTP, validation, duplicates, insert)`,
        value: seconds,
        unit: 's',
        peer: { name: 'COPY FROM STDIN of the same rows', value: copyIn },
      },
      { name: 'import / COPY FROM', value: seconds / copyIn, unit: 'ratio', budget: 1.5 },
    );
  } finally {
    await new Promise((r) => {
      server.proc.once('exit', r);
      server.proc.kill('SIGTERM');
    });
  }

  const after = await openBenchDb();
  try {
    const storage = exportStorage(loadConfig({ ...process.env, DATA_DIR: dataDir }));
    for (const { storage_key } of (await after.query<{ storage_key: string }>('SELECT storage_key FROM exports WHERE id = ANY($1::int[])', [exportIds])).rows) {
      await storage.remove(storage_key);
    }
    await after.query('DELETE FROM big_exports WHERE export_id = ANY($1::int[])', [exportIds]);
    await after.query('DELETE FROM exports WHERE id = ANY($1::int[])', [exportIds]);
    await after.query("DELETE FROM leads WHERE utm_medium = 'bench-io-import'");
    await after.query("DELETE FROM imports WHERE source = 'bench-io-import'");
    // The next run's server then finds the table as this one did, with no bulk removal to vacuum or reindex at its start.
    await after.exec('VACUUM ANALYZE leads');
  } finally {
    await after.close();
  }
  return results;
}
