import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDir, DEMO, signIn, startApp, networkIdle, type App } from './harness';

// The built app as the browser receives it (issue 30): the build's precompressed files, their
// caching, and what the sign-in page loads.
let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

/** Chunks of the signed-in console, which the sign-in page must not load. */
const CONSOLE_CHUNKS = /\/assets\/(?:shell|commands|grid\.commands|Grid|CommandMenu|home|leads|production)-[\w-]{8}\.js$/;

describe('the built app over the wire', () => {
  it('sends the sign-in page and its scripts brotli-compressed from the build, in one round, assets cached a year, the page revalidated', async () => {
    const { page, errors } = await app.page({ cold: true });
    const scripts: { path: string; encoding?: string; cache?: string; sent: number }[] = [];
    page.on('response', async (res) => {
      const path = new URL(res.url()).pathname;
      if (!path.endsWith('.js')) return;
      const headers = res.headers();
      const sizes = await res.request().sizes();
      scripts.push({ path, encoding: headers['content-encoding'], cache: headers['cache-control'], sent: sizes.responseBodySize });
    });
    const login = await page.goto('/login');
    expect(login?.headers()['content-encoding']).toBe('br');
    expect(login?.headers()['cache-control']).toBe('no-cache');
    expect(login?.headers()['vary']).toMatch(/accept-encoding/i);
    await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor();
    await networkIdle(page);

    expect(scripts.length).toBeGreaterThan(5);
    // One round of requests: the page names every script of the sign-in page (its loader, then the
    // entry and the modules it preloads once the form is painted, the sign-in screen's chunks
    // included), all but the language's catalog.
    const html = await (await fetch(`${app.url}/login`)).text();
    const named = new Set([...html.matchAll(/(?:src|data-entry)="([^"]+)"|data-preload="([^"]+)"/g)].flatMap((m) => (m[1] ? [m[1]] : m[2]!.split(' '))));
    const unnamed = scripts.map((s) => s.path).filter((path) => !named.has(path) && !/\/assets\/(?:fr|en|es|zh)-[\w-]{8}\.js$/.test(path));
    expect(unnamed).toEqual([]);
    for (const s of scripts) expect([s.path, s.encoding, s.cache]).toEqual([s.path, 'br', 'public, max-age=31536000, immutable']);
    expect(scripts.filter((s) => CONSOLE_CHUNKS.test(s.path)).map((s) => s.path)).toEqual([]);
    // Measured 195 kB (686 kB before compression) when this test was written: a guard against a
    // console module slipping back into the sign-in path.
    const sent = scripts.reduce((sum, s) => sum + s.sent, 0);
    expect(sent).toBeLessThan(215_000);

    // The brotli file decodes to the very file the build wrote.
    const entry = scripts.find((s) => /\/assets\/index-[\w-]+\.js$/.test(s.path))!;
    const raw = await fetch(`${app.url}${entry.path}`, { headers: { 'accept-encoding': 'br' } });
    expect(raw.headers.get('content-encoding')).toBe('br');
    // fetch decodes brotli itself: compare with the .br file decoded here and with the original.
    const original = readFileSync(join(distDir, entry.path));
    expect(Buffer.from(await raw.arrayBuffer()).equals(original)).toBe(true);
    expect(brotliDecompressSync(readFileSync(join(distDir, `${entry.path}.br`))).equals(original)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('draws the sign-in form from the HTML in the browser’s language, read-only until React takes it over in place', async () => {
    const { page, context, errors } = await app.page({ viewport: { width: 412, height: 823 }, locale: 'en-US' });
    // The entry held back: what shows meanwhile is the page's HTML alone.
    let release!: () => void;
    const held = new Promise<void>((ok) => (release = ok));
    await page.route(/\/assets\/index-[\w-]{8}\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    const submit = page.getByRole('button', { name: 'Sign in', exact: true });
    await submit.waitFor();
    expect(await page.title()).toBe('Sign in · Lead console');
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByLabel('Email or username').getAttribute('readonly')).not.toBeNull();
    const before = await Promise.all([submit, page.getByRole('link', { name: /password/i })].map((l) => l.boundingBox()));
    release();
    await expect.poll(() => submit.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByLabel('Email or username').getAttribute('readonly')).toBeNull();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    expect(await Promise.all([submit, page.getByRole('link', { name: /password/i })].map((l) => l.boundingBox()))).toEqual(before);
    // The language is kept for the server, which sends the next sign-in page in it.
    expect((await context.cookies()).find((c) => c.name === 'language')?.value).toBe('en');
    expect(errors).toEqual([]);
  });

  it('keeps the production map where it is on a phone while the landings load (Lighthouse mobile CLS 0.24)', async () => {
    const { page, errors } = await app.page({ viewport: { width: 412, height: 823 } });
    await signIn(page, DEMO.admin);
    // The landings' names held back until the field has been drawn without them.
    let release!: () => void;
    const held = new Promise<void>((ok) => (release = ok));
    await page.route(/\/api\/landings(?:_facebook)?(?:\?|$)/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/production/pac');
    const field = page.locator('.production-landings');
    await field.waitFor();
    const before = await field.boundingBox();
    release();
    await page
      .getByText(/PAC Air-Air/)
      .first()
      .waitFor();
    const after = await field.boundingBox();
    expect(after).toEqual(before);
    expect(errors).toEqual([]);
  });
});
