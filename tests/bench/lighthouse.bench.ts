// Lighthouse bench (issue 30): Lighthouse 12 in Debian's Chromium against the built app as
// `npm start` serves it (`npm run build` first: this bench builds nothing), on a fresh data folder
// holding the demo. Three pages: the sign-in page, the lead view and the production map, signed
// in as the demo administrator (the Admin-Token cookie, as the app keeps it). Each page in the
// mobile profile (Lighthouse's default: slow 4G, 4× CPU, simulated) and the desktop one; the
// median of LIGHTHOUSE_RUNS (3) runs of the score and of each Core Web Vital. LIGHTHOUSE_PAGES
// (e.g. `sign-in`, or `lead,map`) measures only the pages whose names contain one of its words,
// LIGHTHOUSE_PROFILES (`mobile` or `desktop`) only the profiles it names.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { sessionCookie } from '../support/chromium';
import { TEST_ENV } from '../support/test-env';
import type { BenchResult } from './run';

const root = resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const ADMIN = { email: 'admin@demo.local', password: 'demo-admin' };

const ALL_PAGES = [
  { name: 'sign-in page', path: '/login', signedIn: false, goal: 95 },
  { name: 'lead view', path: '/landings_test/1', signedIn: true, goal: 90 },
  { name: 'production map', path: '/production/pac', signedIn: true, goal: 90 },
];
const pageWords = process.env.LIGHTHOUSE_PAGES?.split(',').filter(Boolean) ?? [];
const PAGES = pageWords.length ? ALL_PAGES.filter((p) => pageWords.some((w) => p.name.includes(w))) : ALL_PAGES;
const ALL_PROFILES = [
  { name: 'mobile', config: undefined },
  { name: 'desktop', config: desktopConfig },
];
const profileNames = process.env.LIGHTHOUSE_PROFILES?.split(',').filter(Boolean) ?? [];
const PROFILES = profileNames.length ? ALL_PROFILES.filter((p) => profileNames.includes(p.name)) : ALL_PROFILES;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => ok(port));
    });
    probe.once('error', fail);
  });
}

/** The bundled server (dist-server/) on its own data folder; the demo is seeded at its first start. */
async function startBuiltServer(dataDir: string): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(process.execPath, [join(root, 'dist-server/main.mjs')], {
    cwd: root,
    env: { ...process.env, ...TEST_ENV, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 180_000; waited += 500) {
    if (proc.exitCode !== null) throw new Error(`the built server stopped (${proc.exitCode})`);
    const ready = await fetch(`${url}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, proc };
    await new Promise((r) => setTimeout(r, 500));
  }
  proc.kill();
  throw new Error('the built server did not start within 3 minutes');
}

async function signInToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Puts the session cookie in the browser's default profile, which Lighthouse's storage reset keeps. */
async function setSessionCookie(port: number, url: string, token: string | null) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    await context.clearCookies();
    if (token) await context.addCookies([sessionCookie(token, url)]);
  } finally {
    await browser.close();
  }
}

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
}

function figures(result: RunnerResult | undefined): Figures {
  const lhr = result?.lhr;
  if (!lhr) throw new Error('Lighthouse gave no result');
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
  };
}

/** One Lighthouse run; one that lost its trace (NO_NAVSTART, seen on a busy machine) is run again once. */
async function measure(url: string, flags: Flags, config: typeof desktopConfig | undefined): Promise<Figures> {
  try {
    return figures(await lighthouse(url, flags, config));
  } catch (error) {
    console.warn(`Lighthouse again on ${url}: ${(error as Error).message}`);
    return figures(await lighthouse(url, flags, config));
  }
}

export default async function lighthouseBench(): Promise<BenchResult[]> {
  if (!existsSync(join(root, 'dist/index.html')) || !existsSync(join(root, 'dist-server/main.mjs'))) {
    throw new Error('No build to measure: run `npm run build` first.');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const { url, proc } = await startBuiltServer(dataDir);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const results: BenchResult[] = [];
  try {
    const token = await signInToken(url);
    for (const page of PAGES) {
      await setSessionCookie(chrome.port, url, page.signedIn ? token : null);
      for (const profile of PROFILES) {
        const runs: Figures[] = [];
        const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] };
        for (let i = 0; i < RUNS; i++) runs.push(await measure(`${url}${page.path}`, flags, profile.config));
        const of = (k: keyof Figures) => median(runs.map((r) => r[k]));
        const label = `${profile.name}, ${page.name}`;
        results.push(
          {
            name: `${label}: performance score (all runs ${runs.map((r) => r.score).join(', ')})`,
            value: of('score'),
            unit: 'score',
            goal: profile.name === 'mobile' ? page.goal : undefined,
          },
          { name: `${label}: first contentful paint`, value: of('fcp'), unit: 'ms' },
          { name: `${label}: largest contentful paint`, value: of('lcp'), unit: 'ms' },
          { name: `${label}: total blocking time`, value: of('tbt'), unit: 'ms' },
          { name: `${label}: cumulative layout shift`, value: of('cls'), unit: 'ratio', decimals: 3 },
        );
      }
    }
  } finally {
    chrome.kill();
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill();
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}
