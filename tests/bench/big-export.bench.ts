// Custom export ('Générer un export personnalisé') of a year of leads on the bench database of
// leads.bench.ts (1,000,000 leads; BENCH_LEADS for a smaller try, BENCH_DATA_DIR or DATABASE_URL
// for another database): from the request to the file, with the progress the screen polls.
// The server runs in this process; the export's row, file and job are removed afterwards.
import { boot } from '../../server/boot';
import { loadConfig } from '../../server/config';
import { exportStorage } from '../../server/services/exports/extract';
import type { BigExportJob } from '../../src/api/exports/contract';
import { dataDir, ensureDatabase } from './leads.bench';
import type { BenchResult } from './run';

const admin = { email: 'bench@bench.local', password: 'bench-password-1' };

export default async function bigExportBench(): Promise<BenchResult[]> {
  await ensureDatabase(Number(process.env.BENCH_LEADS ?? 1_000_000));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    SEED_DEMO: '0',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  });
  const server = await boot(config, { logger: false });
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { db } = server.ctx;
  try {
    const call = async <T>(method: string, path: string, token?: string) => {
      const res = await fetch(url + path, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : { 'content-type': 'application/json' }) },
        body: token ? undefined : JSON.stringify(admin),
      });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return { status: res.status, body: (await res.json()) as T };
    };
    const token = (await call<{ token: string }>('POST', '/api/auth')).body.token;
    const landings = (await db.query<{ id: number }>('SELECT id FROM landings ORDER BY id')).rows.map((r) => r.id);
    const { end } = (await db.query<{ end: string }>(`SELECT (max(created_at) AT TIME ZONE 'Europe/Paris')::date::text AS end FROM leads`)).rows[0]!;
    const start = (await db.query<{ start: string }>(`SELECT ($1::date - 364)::text AS start`, [end])).rows[0]!.start;

    const started = performance.now();
    const accepted = await call<{ data: BigExportJob }>(
      'POST',
      `/api/generate_big_export?landings=${landings.join(',')}&status=new,extracted,archived,trashed,converted,duplicate&start=${start}&end=${end}`,
      token,
    );
    const answeredMs = performance.now() - started;
    const progress = new Set<number>();
    let job = accepted.body.data;
    while (job.state === 'queued' || job.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = (await call<{ data: BigExportJob }>('GET', `/api/big_exports/${job.id}`, token)).body.data;
      if (job.state === 'running') progress.add(job.written);
    }
    const doneS = (performance.now() - started) / 1000;
    if (job.state !== 'done') throw new Error(`custom export ${job.state}: ${job.error}`);
    console.error(`  … custom export of ${job.total} leads (${start} → ${end}): ${doneS.toFixed(1)} s, ${progress.size} progress figures`);

    const exportId = job.export?.id;
    if (exportId) {
      const { rows } = await db.query<{ storage_key: string }>('SELECT storage_key FROM exports WHERE id = $1', [exportId]);
      await exportStorage(config).remove(rows[0]!.storage_key);
      await db.query('DELETE FROM big_exports WHERE id = $1', [job.id]);
      await db.query('DELETE FROM exports WHERE id = $1', [exportId]);
    }
    return [
      { name: 'custom export: 202 answer', value: answeredMs, unit: 'ms', budget: 1000 },
      { name: `custom export of a year, csv, ${job.total} leads, request to file`, value: doneS, unit: 's', budget: 30 },
      { name: 'custom export: distinct progress figures seen (every 200 ms)', value: progress.size, unit: 'count' },
    ];
  } finally {
    await server.close();
  }
}
