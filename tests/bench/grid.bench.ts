// Grid bench (DESIGN.md §7): 100,000 loaded rows in Debian's Chromium; frame work while holding
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
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const addr = server.address() as { port: number };
    resolve({ url: `http://127.0.0.1:${addr.port}/`, server });
  }));
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

interface Figures {
  moveMedian: number;
  moveP95: number;
  scrollMedian: number;
  scrollP95: number;
  rowElements: number;
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

  await page.evaluate(() => window.bench.startFrames());
  await page.evaluate((n) => window.bench.scroll(600, n), SCROLL_FRAMES);
  const scroll = await page.evaluate(() => window.bench.stopFrames());
  const rowElements = await page.evaluate(() => window.bench.rowElements());
  return {
    moveMedian: quantile(move, 0.5),
    moveP95: quantile(move, 0.95),
    scrollMedian: quantile(scroll, 0.5),
    scrollP95: quantile(scroll, 0.95),
    rowElements,
  };
}

export default async function gridBench(): Promise<BenchResult[]> {
  const outDir = await buildPage(fileURLToPath(new URL('./grid/', import.meta.url)));
  const { url, server } = await serve(outDir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const ours = await measure(page, `${url}?grid=ours`, 'j', () => page.focus('[role=grid]'));
    const ag = await measure(page, `${url}?grid=ag`, 'ArrowDown', () => page.click('[role=row] [role=gridcell][col-id=nom]'));
    const row = (name: string, value: number, peer: number, budget?: number): BenchResult => ({ name, value, unit: 'ms', budget, peer: { name: 'AG Grid Community', value: peer } });
    return [
      row('grid 100k rows: focus move, hold j, frame work (median)', ours.moveMedian, ag.moveMedian, 16),
      row('grid 100k rows: focus move, hold j, frame work (p95)', ours.moveP95, ag.moveP95, 16),
      row('grid 100k rows: scroll 600 px/frame, frame work (median)', ours.scrollMedian, ag.scrollMedian, 16),
      row('grid 100k rows: scroll 600 px/frame, frame work (p95)', ours.scrollP95, ag.scrollP95, 16),
      { name: 'grid 100k rows: row elements in the DOM', value: ours.rowElements, unit: 'count', budget: 200, peer: { name: 'AG Grid Community', value: ag.rowElements } },
    ];
  } finally {
    await browser.close();
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
