import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Cookie } from 'playwright-core';
import { TOKEN_COOKIE } from '../../src/state/user';

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
  ],
};

/** Debian's Chromium, headless, with no network of its own: never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(launchOptions);
}

/**
 * The same Chromium with a profile in a new folder: a context that is not an incognito one, whose
 * cache keeps the scripts it loaded and the code Chromium compiled from them.
 */
export function launchProfile(options: BrowserContextOptions): Promise<BrowserContext> {
  const folder = mkdtempSync(join(tmpdir(), 'lead-console-chromium-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return chromium.launchPersistentContext(folder, { ...launchOptions, ...options });
}

/** The session cookie the sign-in screen writes for `token`, for a browser context of the app at `url`. */
export function sessionCookie(token: string, url: string): Pick<Cookie, 'name' | 'value' | 'sameSite'> & { url: string } {
  return { name: TOKEN_COOKIE, value: encodeURIComponent(token), url: new URL(url).origin, sameSite: 'Strict' };
}
