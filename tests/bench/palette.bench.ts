// Palette bench (docs/decisions.md §7): in Debian's Chromium, our palette and stock cmdk (default
// filtering) over the same 10,000 entries, in the same run; open and per-keystroke times.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { buildPage, serve } from './grid.bench';
import type { BenchResult } from './run';

const OPENS = 12;
/** PALETTE_ENTRIES=1000 for a quick run; the budgets are for 10,000. */
const ENTRIES = Number(process.env.PALETTE_ENTRIES ?? 10_000);
const size = ENTRIES.toLocaleString('en');
const ROUNDS = 3;
/** Typed one character at a time, then erased: short and long queries, accents left out. */
const QUERIES = ['pompe a chaleur occitanie', 'dupont energie 12', 'fb panneaux', 'etienne'];

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function measure(page: Page, kind: 'mine' | 'stock') {
  const opens: number[] = [];
  for (let i = 0; i < OPENS; i++) {
    opens.push(await page.evaluate((k) => window.paletteBench.open(k), kind));
    await page.evaluate(() => window.paletteBench.close());
  }
  const keystrokes: number[] = [];
  let matches = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await page.evaluate((k) => window.paletteBench.open(k), kind);
    for (const query of QUERIES) {
      for (let n = 1; n <= query.length; n++) keystrokes.push(await page.evaluate((q) => window.paletteBench.type(q), query.slice(0, n)));
      matches += await page.evaluate(() => window.paletteBench.results());
      for (let n = query.length - 1; n >= 0; n--) keystrokes.push(await page.evaluate((q) => window.paletteBench.type(q), query.slice(0, n)));
    }
    await page.evaluate(() => window.paletteBench.close());
  }
  return {
    openMedian: quantile(opens, 0.5),
    openP95: quantile(opens, 0.95),
    keyMedian: quantile(keystrokes, 0.5),
    keyP95: quantile(keystrokes, 0.95),
    matches,
  };
}

export default async function paletteBench(): Promise<BenchResult[]> {
  const outDir = await buildPage(fileURLToPath(new URL('./palette/', import.meta.url)));
  const { url, server } = await serve(outDir);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}?n=${ENTRIES}`);
    await page.waitForFunction(() => window.paletteBench?.ready);
    // Every entry is reachable with the arrows when the query is empty (no "N more results" cap).
    await page.evaluate(() => window.paletteBench.open('mine'));
    const reach = await page.evaluate(() => window.paletteBench.reach(100));
    await page.evaluate(() => window.paletteBench.close());
    if (reach.visited !== 101 || reach.end !== reach.last) throw new Error(`palette: entries not reachable with the keys: ${JSON.stringify(reach)}`);
    console.log(`  empty query: ArrowDown visits 101 entries one by one, End reaches the last of ${ENTRIES}`);
    // Warm both up once so neither pays the first-run compilation in its figures.
    for (const kind of ['mine', 'stock'] as const) {
      await page.evaluate((k) => window.paletteBench.open(k), kind);
      await page.evaluate(() => window.paletteBench.type('pompe'));
      await page.evaluate(() => window.paletteBench.close());
    }
    const mine = await measure(page, 'mine');
    const stock = await measure(page, 'stock');
    console.log(`  rows rendered after each query (summed): ours ${mine.matches} (virtualized: every match reachable), stock ${stock.matches}`);
    const peer = (value: number) => ({ name: 'stock cmdk', value });
    return [
      { name: `palette open, ${size} entries (median)`, value: mine.openMedian, unit: 'ms', budget: 50, peer: peer(stock.openMedian) },
      { name: `palette open, ${size} entries (p95)`, value: mine.openP95, unit: 'ms', budget: 50, peer: peer(stock.openP95) },
      { name: `palette keystroke, ${size} entries (median)`, value: mine.keyMedian, unit: 'ms', budget: 16, peer: peer(stock.keyMedian) },
      { name: `palette keystroke, ${size} entries (p95)`, value: mine.keyP95, unit: 'ms', budget: 16, peer: peer(stock.keyP95) },
    ];
  } finally {
    await browser.close();
    server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}
