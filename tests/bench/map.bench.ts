// Production map bench (docs/decisions.md §7): geodata size, the map drawn after its data and the frames
// of hover and selection in Debian's Chromium (the real DepartmentMap on the build's geodata),
// and the regions query for a year over the bench database (1,000,000 leads, as leads.bench.ts
// builds it; BENCH_DATA_DIR and BENCH_LEADS to try it on a small one, DATABASE_URL for PostgreSQL).
import react from '@vitejs/plugin-react';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { buildDepartmentsTopology, departmentsGeodata } from '../../scripts/geodata.mjs';
import { openDb } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { regionsData } from '../../server/services/productions/regions';
import { regionsDataQuery } from '../../src/api/productions/contract';
import { launchChromium } from '../support/chromium';
import { serve } from './grid.bench';
import type { BenchResult } from './run';

const root = resolve(import.meta.dirname, '../..');
const dataDir = resolve(root, process.env.BENCH_DATA_DIR ?? 'data/bench');
const TARGET = Number(process.env.BENCH_LEADS ?? 1_000_000);
const FRAMES = 60;
const QUERIES = 10;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function browserFigures() {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-map-'));
  await build({
    root: resolve(import.meta.dirname, 'map'),
    base: './',
    logLevel: 'error',
    configFile: false,
    plugins: [react(), departmentsGeodata()],
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
  const { url, server } = await serve(outDir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(url);
    await page.waitForFunction(() => window.mapBench?.ready);
    const runs = async (fn: (i: number) => Promise<number>, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push(await fn(i));
      return out;
    };
    const first = await runs(() => page.evaluate(() => window.mapBench.firstDraw()), 8);
    const redraw = await runs(() => page.evaluate(() => window.mapBench.redraw()), FRAMES);
    const hover = await runs((i) => page.evaluate((j) => window.mapBench.hover(j), i), FRAMES);
    const select = await runs((i) => page.evaluate((j) => window.mapBench.select(j), i), FRAMES);
    return { first: quantile(first.slice(1), 0.5), redraw: quantile(redraw, 0.5), hover: quantile(hover, 0.95), select: quantile(select, 0.95) };
  } finally {
    await browser.close();
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The regions query of the biggest category over the last year, straight on the service (no HTTP). */
async function queryFigures() {
  const openBenchDb = () => openDb({ databaseUrl: process.env.DATABASE_URL, pgliteDir: resolve(dataDir, 'pglite') });
  let db = await openBenchDb();
  await migrate(db);
  const n = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads')).rows[0].n;
  if (n < TARGET) {
    await db.close();
    console.log(`Construction de la base de bench (${n} → ${TARGET} leads)…`);
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'server/db/seed-cli.ts', '--leads', String(TARGET - Math.max(n, 20_000))], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
      stdio: 'inherit',
    });
    if (seeded.status !== 0) throw new Error('seed failed');
    db = await openBenchDb();
  }
  try {
    const { rows } = await db.query<{ category: 'pac' | 'pv' | 'other'; ids: number[]; leads: number }>(
      `SELECT g.category, array_agg(DISTINCT g.id) AS ids, count(*)::int AS leads FROM leads l JOIN landings g ON g.id = l.landing_id
        WHERE l.created_at > now() - interval '1 year' GROUP BY 1 ORDER BY 3 DESC LIMIT 1`,
    );
    const { category, ids, leads } = rows[0];
    const end = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    const query = regionsDataQuery.parse({ date_range: `${start}<>${end}`, landings: ids.join(','), departement: 'FR-30,FR-34' });
    await regionsData(db, category, query);
    const times: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const t0 = performance.now();
      await regionsData(db, category, query);
      times.push(performance.now() - t0);
    }
    console.log(
      `  regions query: ${category}, ${ids.length} landings, ${leads.toLocaleString('fr-FR')} leads in the year (of ${Math.max(n, TARGET).toLocaleString('fr-FR')})`,
    );
    return { median: quantile(times, 0.5), p95: quantile(times, 0.95) };
  } finally {
    await db.close();
  }
}

export default async function mapBench(): Promise<BenchResult[]> {
  const geodata = gzipSync(JSON.stringify(buildDepartmentsTopology())).length / 1024;
  const frames = await browserFigures();
  const query = await queryFigures();
  return [
    { name: 'map geodata (TopoJSON, gzip)', value: geodata, unit: 'kB', budget: 100 },
    { name: 'map first draw: outlines, choropleth, overlays (median)', value: frames.first, unit: 'ms' },
    { name: 'map drawn after new data (median frame)', value: frames.redraw, unit: 'ms', budget: 100 },
    { name: 'map hover frame (p95)', value: frames.hover, unit: 'ms', budget: 16 },
    { name: 'map selection frame (p95)', value: frames.select, unit: 'ms', budget: 16 },
    { name: 'regions query, a year of the biggest category (median)', value: query.median, unit: 'ms', budget: 300 },
    { name: 'regions query, a year of the biggest category (p95)', value: query.p95, unit: 'ms', budget: 300 },
  ];
}
