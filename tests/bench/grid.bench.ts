// Grid bench (docs/decisions.md §7): 100,000 loaded rows in Debian's Chromium; frame work while holding
// a move key and while scrolling, and the row elements in the DOM; AG Grid Community on the same
// rows in the same run as the peer.
import react from '@vitejs/plugin-react';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { DEMO, signIn, startApp } from '../e2e/harness';
import { windows1252 } from '../fixtures/ooxml';
import { launchChromium } from '../support/chromium';
import type { BenchResult } from './run';

const MOVES = 150;
const SCROLL_FRAMES = 120;

export async function buildPage(root: string): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-page-'));
  await build({ root, base: './', logLevel: 'error', configFile: false, plugins: [react()], build: { outDir, emptyOutDir: true, sourcemap: false } });
  return outDir;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

export function serve(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = existsSync(path) && statSync(path).isFile() ? path : join(dir, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${addr.port}/`, server });
    }),
  );
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

interface Figures {
  moveMedian: number;
  moveP95: number;
  /** A fast wheel or trackpad fling: 120 px (4 rows) a frame, 7,200 px/s. */
  scrollMedian: number;
  scrollP95: number;
  /** Stress: 600 px (20 rows) a frame, 36,000 px/s, every frame mounting 20 new rows. */
  stressMedian: number;
  stressP95: number;
  rowElements: number;
}

async function scrollFigures(page: Page, step: number, frames: number) {
  await page.evaluate(() => window.bench.startFrames());
  await page.evaluate(([s, n]) => window.bench.scroll(s, n), [step, frames] as const);
  return page.evaluate(() => window.bench.stopFrames());
}

async function measure(page: Page, url: string, key: string, focus: () => Promise<void>): Promise<Figures> {
  await page.goto(url);
  await page.waitForFunction(() => window.bench?.ready && document.querySelectorAll('[role=row]').length > 10, null, { timeout: 60_000 });
  await page.waitForTimeout(500);
  await focus();
  // Hold the key: auto-repeat at about 30 per second, as a keyboard does.
  await page.evaluate(() => window.bench.startFrames());
  for (let i = 0; i < MOVES; i++) {
    await page.keyboard.down(key);
    await page.waitForTimeout(30);
  }
  await page.keyboard.up(key);
  await page.waitForTimeout(200);
  const move = await page.evaluate(() => window.bench.stopFrames());
  const scroll = await scrollFigures(page, 120, SCROLL_FRAMES);
  const stress = await scrollFigures(page, 600, SCROLL_FRAMES / 2);
  const rowElements = await page.evaluate(() => window.bench.rowElements());
  return {
    moveMedian: quantile(move, 0.5),
    moveP95: quantile(move, 0.95),
    scrollMedian: quantile(scroll, 0.5),
    scrollP95: quantile(scroll, 0.95),
    stressMedian: quantile(stress, 0.5),
    stressP95: quantile(stress, 0.95),
    rowElements,
  };
}

const IMPORT_ROWS = 100_000;
const IMPORT_COLUMNS = [
  { key: 'nom', label: 'Nom', type: 'text', required: true },
  { key: 'prenom', label: 'Prénom', type: 'text', required: true },
  { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
  { key: 'email', label: 'Email', type: 'email', required: true },
  { key: 'code_postal', label: 'Code postal', type: 'postal_code', required: true },
];
const POSTAL_CODES = ['30000', '34000', '69001', '75011', '13001', '33000', '31000', '44000', '67000', '59000'];

/** A French Excel CSV: Windows-1252, ';' separators, accented headers and values. */
function bigCsv(rows: number): Buffer {
  const lines = ['Nom;Prénom;Téléphone;Email;Code postal'];
  for (let i = 0; i < rows; i++) {
    lines.push(`Lefèvre${i};Élodie;06${String(i).padStart(8, '0')};lead${i}@exemple.fr;${POSTAL_CODES[i % POSTAL_CODES.length]}`);
  }
  return windows1252(lines.join('\r\n') + '\r\n');
}

/** The import tab end to end in Chromium: read, map and send 100,000 rows, until 'Leads importés'. */
async function importBench(): Promise<{ parse: number; total: number }> {
  const app = await startApp();
  try {
    const { rows } = await app.server.ctx.db.query<{ id: number }>(
      `INSERT INTO landings (key, name, category, columns) VALUES ('bench-import', 'Bench import', 'pac', $1) RETURNING id`,
      [JSON.stringify(IMPORT_COLUMNS)],
    );
    const { page } = await app.page();
    await signIn(page, DEMO.staff);
    await page.goto(`/landings_test/${rows[0].id}?tab=import`);
    await page.getByRole('combobox', { name: 'Source (utm_medium)' }).fill('bench');
    await page.keyboard.press('Escape');
    const buffer = bigCsv(IMPORT_ROWS);
    const started = Date.now();
    await page.getByLabel('Fichier CSV ou XLSX').setInputFiles({ name: 'bench.csv', mimeType: 'text/csv', buffer });
    const submit = page.getByRole('button', { name: /^Importer 100/ });
    await submit.waitFor({ timeout: 60_000 });
    const parse = Date.now() - started;
    await submit.click();
    await page.getByText(/^Leads importés\s: 100/).waitFor({ timeout: 120_000 });
    return { parse, total: Date.now() - started };
  } finally {
    await app.close();
  }
}

export default async function gridBench(): Promise<BenchResult[]> {
  const outDir = await buildPage(fileURLToPath(new URL('./grid/', import.meta.url)));
  const { url, server } = await serve(outDir);
  const browser = await launchChromium();
  let ours: Figures;
  let ag: Figures;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    ours = await measure(page, `${url}?grid=ours`, 'j', () => page.focus('[role=grid]'));
    ag = await measure(page, `${url}?grid=ag`, 'ArrowDown', () => page.click('[role=row] [role=gridcell][col-id=nom]'));
  } finally {
    await browser.close();
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
  const imported = await importBench();
  const row = (name: string, value: number, peer: number, budget?: number): BenchResult => ({
    name,
    value,
    unit: 'ms',
    budget,
    peer: { name: 'AG Grid Community', value: peer },
  });
  return [
    row('grid 100k rows: focus move, hold j, frame work (median)', ours.moveMedian, ag.moveMedian, 16),
    row('grid 100k rows: focus move, hold j, frame work (p95)', ours.moveP95, ag.moveP95, 16),
    row('grid 100k rows: scroll 120 px/frame, frame work (median)', ours.scrollMedian, ag.scrollMedian, 16),
    row('grid 100k rows: scroll 120 px/frame, frame work (p95)', ours.scrollP95, ag.scrollP95, 16),
    row('grid 100k rows: stress scroll 600 px/frame, frame work (median)', ours.stressMedian, ag.stressMedian),
    row('grid 100k rows: stress scroll 600 px/frame, frame work (p95)', ours.stressP95, ag.stressP95),
    {
      name: 'grid 100k rows: row elements in the DOM',
      value: ours.rowElements,
      unit: 'count',
      budget: 200,
      peer: { name: 'AG Grid Community', value: ag.rowElements },
    },
    { name: 'import 100k-row CSV in the browser: read and mapped', value: imported.parse / 1000, unit: 's' },
    { name: 'import 100k-row CSV in the browser: end to end', value: imported.total / 1000, unit: 's', budget: 30 },
  ];
}
