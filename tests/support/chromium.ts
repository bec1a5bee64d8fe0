import { chromium, type Browser, type Cookie } from 'playwright-core';
import { TOKEN_COOKIE } from '../../src/state/user';

/** Debian's Chromium, headless, with no network of its own: never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
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
  });
}

/** The session cookie the sign-in screen writes for `token`, for a browser context of the app at `url`. */
export function sessionCookie(token: string, url: string): Pick<Cookie, 'name' | 'value' | 'sameSite'> & { url: string } {
  return { name: TOKEN_COOKIE, value: encodeURIComponent(token), url: new URL(url).origin, sameSite: 'Strict' };
}
