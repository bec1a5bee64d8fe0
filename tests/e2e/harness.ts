/**
 * Browser tests' harness: builds the app with `vite build` when its build is older than the
 * sources, starts the real server (boot) on a copy of the PGlite data folder the global setup
 * seeded with the demo data (tests/e2e/demo-data.ts), and drives Debian's Chromium through
 * playwright-core. The build goes to a folder of its own
 * (node_modules/.cache/e2e-dist), so an `npm start` rebuilding dist/ meanwhile cannot swap the
 * assets under a running test.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { inject, onTestFinished } from 'vitest';
import { boot, type Booted } from '../../server/boot';
import { loadConfig } from '../../server/config';
import { launchChromium, launchProfile, sessionCookie } from '../support/chromium';
import { seedProcess } from '../support/seed-process';
import { TEST_ENV } from '../support/test-env';

const root = resolve(import.meta.dirname, '../..');
export const DEMO = {
  admin: { email: 'admin@demo.local', password: 'demo-admin' },
  staff: { email: 'staff@demo.local', password: 'demo-staff' },
};
export const DESKTOP = { width: 1440, height: 900 };
export const MOBILE = { width: 390, height: 844 };

function newestMtime(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((n) => newestMtime(join(path, n))));
}

export const distDir = join(root, 'node_modules/.cache/e2e-dist');

/** Builds the front end unless its build is newer than src/, index.html, the Vite config and the build's scripts (the sign-in page's preloads and prerender). */
export function ensureBuilt() {
  const built = join(distDir, 'index.html');
  const sources = Math.max(...['src', 'index.html', 'vite.config.ts', 'scripts'].map((path) => newestMtime(join(root, path))));
  if (existsSync(built) && statSync(built).mtimeMs > sources) return;
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  // A production build, as `npm start` serves: vitest sets NODE_ENV=test, and libraries that
  // read it (react-aria skips its injected <style> under 'test') would otherwise be tested as
  // they never run for users.
  execFileSync(process.execPath, [vite, 'build', '--outDir', distDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

export interface App {
  url: string;
  server: Booted;
  browser: Browser;
  /**
   * A page with no cookie and nothing stored, French unless told otherwise, closed when its test
   * ends. `cold`: in a fresh context, whose cache holds nothing yet (a first visit's downloads).
   */
  page(opts?: {
    viewport?: { width: number; height: number };
    locale?: string;
    cold?: boolean;
  }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  close(): Promise<void>;
}

let sharedChromium: Promise<Browser> | undefined;
/**
 * The e2e files share one process (vitest.config.ts), and one Chromium in it: each app closes
 * only the contexts it opened, and the browser goes with the process. Outside vitest (the grid
 * bench, under tsx) each app launches its own and closes it.
 */
async function chromiumFor(): Promise<Browser> {
  if (!process.env.VITEST) return launchChromium();
  const current = await sharedChromium;
  if (current?.isConnected()) return current;
  sharedChromium = launchChromium();
  return sharedChromium;
}

/**
 * The port every app of the process listens on when it is the only one open: the browser's
 * cache is by address, and with one address the build's scripts, and the code Chromium compiled
 * from them, carry from file to file (docs/performance.md). A file's second app at once takes
 * another.
 */
let sharedPort = 0;
async function listen(server: Booted): Promise<string> {
  if (sharedPort) {
    try {
      return await server.app.listen({ port: sharedPort, host: '127.0.0.1' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      return server.app.listen({ port: 0, host: '127.0.0.1' });
    }
  }
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  if (process.env.VITEST) sharedPort = Number(new URL(url).port);
  return url;
}

/**
 * One profile whose single page the tests take in turn (`App.page`): a fresh incognito context
 * per test downloaded, parsed and compiled the scripts again each time. Before each test's page
 * its cookies, stored data and permissions go; its cache stays.
 */
let profile: Promise<BrowserContext> | undefined;
let profileInUse = false;
async function profileFor(url: string): Promise<BrowserContext> {
  const current = await profile;
  if (current) return current;
  profile = launchProfile({ viewport: DESKTOP, locale: 'fr-FR', timezoneId: 'Europe/Paris', baseURL: url });
  const opened = await profile;
  opened.on('close', () => (profile = undefined));
  return opened;
}

/** Runs `then` when the current test ends; false outside a test (a suite's beforeAll). */
function whenTestEnds(then: Parameters<typeof onTestFinished>[0]): boolean {
  try {
    onTestFinished(then);
    return true;
  } catch {
    return false;
  }
}

/** `env`: settings of the server beyond the defaults (a test's SMTP_URL, PUBLIC_URL…). */
export async function startApp(env: Record<string, string> = {}): Promise<App> {
  ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'lead-console-e2e-'));
  // The file's own copy of the demo the suite's global setup seeded: its writes reach no other
  // file. Outside vitest (the grid bench, under tsx) the app seeds its own.
  const seeded = process.env.VITEST ? inject('e2eDemoDataDir') : undefined;
  if (seeded) cpSync(seeded, dataDir, { recursive: true });
  else await seedProcess({ DATA_DIR: dataDir });
  const config = loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const server = await boot(config, { logger: false, distDir });
  const url = await listen(server);
  const browser = await chromiumFor();
  const contexts: BrowserContext[] = [];
  /** The profile's page when it is free and fits (the profile's address, language, a warm cache), else a fresh context's. */
  async function openPage({ viewport, locale, cold }: { viewport: { width: number; height: number }; locale: string; cold: boolean }) {
    if (process.env.VITEST && !cold && !profileInUse && locale === 'fr-FR' && new URL(url).port === String(sharedPort)) {
      const context = await profileFor(url);
      const page = await context.newPage();
      if (whenTestEnds(() => page.close().finally(() => (profileInUse = false)))) {
        profileInUse = true;
        await context.clearCookies();
        await context.clearPermissions();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'local_storage,indexeddb,service_workers,cache_storage' });
        await cdp.detach();
        await page.setViewportSize(viewport);
        return { context, page };
      }
      await page.close();
    }
    // The console's users are in France, and its days are Paris days (docs/api.md): with the
    // machine's UTC, 'today' in the browser lagged the server's day from midnight to 1 a.m.
    const context = await browser.newContext({ viewport, locale, timezoneId: 'Europe/Paris', baseURL: url });
    contexts.push(context);
    whenTestEnds(() => context.close());
    return { context, page: await context.newPage() };
  }
  return {
    url,
    server,
    browser,
    async page({ viewport = DESKTOP, locale = 'fr-FR', cold = false } = {}) {
      const { context, page } = await openPage({ viewport, locale, cold });
      // E2E_CPU_THROTTLE=4: the page's main thread that many times slower (CDP), a loaded CI
      // machine's timing reproduced on a quiet one.
      const throttle = Number(process.env.E2E_CPU_THROTTLE ?? 1);
      if (throttle > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: throttle });
      const pending = new Set<Request>();
      inFlight.set(page, pending);
      page.on('request', (r) => !isEventStream(r) && pending.add(r));
      page.on('requestfinished', (r) => pending.delete(r));
      page.on('requestfailed', (r) => pending.delete(r));
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      explainFailures(page);
      return { page, context, errors };
    },
    async close() {
      if (process.env.VITEST) await Promise.all(contexts.map((c) => c.close()));
      else await browser.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What the page was showing when its test failed, added to the test's first error: CI reports only
 * that error's first lines, and a timeout alone does not say whether the page was elsewhere, still
 * loading, or refused by the API.
 */
function explainFailures(page: Page) {
  const failures: string[] = [];
  const keep = (line: string) => {
    failures.push(line);
    if (failures.length > 5) failures.shift();
  };
  page.on('response', (r) => r.status() >= 400 && keep(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`));
  page.on('requestfailed', (r) => !isEventStream(r) && keep(`${r.failure()?.errorText ?? 'failed'} ${r.method()} ${new URL(r.url()).pathname}`));
  // When the test ends rather than when it has failed: vitest runs the failure's hooks after the
  // end's, by which time the page the test used is closed (`App.page`), and the end's in the
  // reverse order of their registration, so this one before that close. A page opened outside a
  // test (a suite's beforeAll) has no test to explain.
  whenTestEnds(async ({ task }) => {
    const error = task.result?.state === 'fail' ? task.result.errors?.[0] : undefined;
    if (!error || page.isClosed()) return;
    // The screen's own region (the sidebar's names would fill the line), or the page without a shell.
    const main = page.locator('main');
    const region = (await main.count().catch(() => 0)) ? main.first() : page.locator('body');
    const text = await region.innerText({ timeout: 2_000 }).catch(() => '(unreadable)');
    const shown = text.replace(/\s+/g, ' ').slice(0, 400);
    error.message += `\n  page ${new URL(page.url()).pathname} showing: ${shown}\n  last refused requests: ${failures.join('; ') || 'none'}`;
  });
}

const inFlight = new WeakMap<Page, Set<Request>>();
const isEventStream = (r: Request) => new URL(r.url()).pathname === '/api/events';
const IDLE_MS = 500;

/**
 * Playwright's 'networkidle' (loaded, then no request in flight for 500 ms), the live event stream
 * aside: a signed-in page holds GET /api/events open as long as it lives, and 'networkidle' would
 * wait for it forever.
 */
export async function networkIdle(page: Page, timeout = 30_000) {
  await page.waitForLoadState('load');
  const pending = inFlight.get(page)!;
  const deadline = Date.now() + timeout;
  let quietSince = Date.now();
  while (Date.now() - quietSince < IDLE_MS) {
    if (Date.now() > deadline) throw new Error(`network not idle after ${timeout} ms: ${[...pending].map((r) => r.url()).join(', ')}`);
    if (pending.size > 0) quietSince = Date.now();
    await page.waitForTimeout(50);
  }
}

/** Signs in through the login form and waits for the shell. */
export async function signInThroughForm(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel(/Email|identifiant|username/i).fill(who.email);
  await page.getByLabel(/Mot de passe|Password/i).fill(who.password);
  await page.getByRole('button', { name: /Se connecter|Sign in/ }).click();
  await page.waitForSelector('nav.sidebar');
}

/**
 * Signs in as the sign-in screen leaves the browser (the API's token in the session cookie), then
 * opens `path` and waits for the shell. The screen itself is walked by the tests about it
 * (`signInThroughForm`, two-factor, single sign-on); through it, each test loaded one page more.
 */
export async function signIn(page: Page, who: { email: string; password: string }, path = '/') {
  const res = await page.request.post('/api/auth', { data: { email: who.email, password: who.password } });
  if (!res.ok()) throw new Error(`sign-in of ${who.email}: ${res.status()} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  await page.context().addCookies([sessionCookie(token, res.url())]);
  await page.goto(path);
  await page.waitForSelector('nav.sidebar');
}

/** The text of the row a grid's focus is on ('' when none is). */
export const focusedRowText = (grid: Locator) =>
  grid.evaluate((el) => document.getElementById(el.getAttribute('aria-activedescendant') ?? '')?.textContent ?? '');

/**
 * Moves a focused grid's focus down with j until its row contains `text`, then, from the last row,
 * up with k. A count of rows to pass is not enough, nor is going down only: a row can be added above
 * meanwhile (a rule's first sale of a new Paris day writes its day's report, and the report grid
 * lists the newest first). Each press waits for the focus to move: on a loaded machine the screen
 * may take a moment to draw it, or to give the grid its keys.
 */
export async function focusRowWith(page: Page, grid: Locator, text: string, max = 100) {
  let key = 'j';
  for (let i = 0; ; i++) {
    const at = await focusedRowText(grid);
    if (at.includes(text)) return;
    if (i < max) {
      await page.keyboard.press(key);
      if (await movedFrom(grid, at)) continue;
      if (key === 'j') {
        key = 'k';
        continue;
      }
    }
    const seen = await page.evaluate(() => ({
      focus: `${document.activeElement?.tagName} ${document.activeElement?.getAttribute('role') ?? ''}`,
      rows: [...document.querySelectorAll('[role=grid] [role=row]')].slice(0, 4).map((r) => r.textContent),
    }));
    throw new Error(
      `no row with "${text}" after ${i + 1} presses of j${key === 'k' ? ' then k' : ''} (the last left "${at}" focused): focus on ${seen.focus}, first rows ${JSON.stringify(seen.rows)}`,
    );
  }
}

/** Whether the grid's focused row leaves the one whose text is `from` within 5 s. */
async function movedFrom(grid: Locator, from: string) {
  for (const t0 = Date.now(); Date.now() - t0 < 5000; await grid.page().waitForTimeout(20)) if ((await focusedRowText(grid)) !== from) return true;
  return false;
}

/**
 * The focus is somewhere useful, not on <body>. Poll it (`expect.poll`) after a dialog closes:
 * react-aria gives the focus back to the trigger a frame later.
 */
export const focusKept = (page: Page) => page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body);

let axeSource: string | undefined;
/** Runs axe-core in the page, or in the part of it `within` selects, and returns the serious and critical violations. */
export async function axeViolations(page: Page, within?: string) {
  // Evaluated, not added as an inline <script>: the app's Content-Security-Policy refuses inline
  // scripts. Once per document: its half a megabyte was parsed again at every check of a screen.
  axeSource ??= readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(async (within) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (ctx: object, opts: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
          _audit: { rules: { id: string; impact: string }[] };
        };
      }
    ).axe;
    // Only the rules that can find a serious or critical violation, the only ones kept below: every
    // violation of a rule has its rule's impact (axe-core's rule metadata), and the rules of a
    // moderate or minor impact ('region' reads every node of the page) ran for nothing.
    const lowImpact = axe._audit.rules.filter((rule) => rule.impact !== 'serious' && rule.impact !== 'critical');
    return axe.run(within ? { include: [[within]] } : document, {
      resultTypes: ['violations'],
      rules: Object.fromEntries(lowImpact.map((rule) => [rule.id, { enabled: false }])),
    });
  }, within);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Sums the layout shifts of each document the page loads (not those right after an input), from its first paint. */
export async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { cls: number };
    w.cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift of `page` so far (`watchLayoutShifts`). */
export const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { cls: number }).cls);
