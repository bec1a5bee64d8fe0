import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCompressedCopies } from '../../scripts/precompress.mjs';
import { startServer, type TestServer } from './harness';

// A built front end with the prerendered sign-in pages the build writes (scripts/prerender-sign-in.mjs).
const dist = mkdtempSync(join(tmpdir(), 'lead-console-dist-'));
const css = ':root{color:#1d2330}';
const page = (language: string) =>
  `<!doctype html><html lang="${language}"><head><style>${css}</style></head><body><div id="root"><main class="login">${language}</main></div></body></html>`;
const files: Record<string, string> = {
  'index.html': '<!doctype html><html lang="fr"><head></head><body><div id="root"></div></body></html>',
  ...Object.fromEntries(['fr', 'en', 'es', 'zh'].map((language) => [`login.${language}.html`, page(language)])),
};

let server: TestServer;
beforeAll(async () => {
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dist, name), content);
    await writeCompressedCopies(join(dist, name));
  }
  mkdirSync(join(dist, 'assets'));
  server = await startServer({}, { distDir: dist });
});
afterAll(async () => {
  await server.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
const languageOf = async (res: Response) => /<main class="login">(\w+)</.exec(await res.text())?.[1];

describe('the sign-in page', () => {
  it('answers /login prerendered in the language the browser will pick, revalidated, varying by what chose it', async () => {
    const res = await get('/login?redirect=%2Fusers', { 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('vary')).toMatch(/accept-language, cookie, accept-encoding/i);
    expect(await languageOf(res)).toBe('es');
    // The first of the browser's languages that the console has, else English (src/shared/languages.ts).
    expect(await languageOf(await get('/login', { 'accept-language': 'de-DE,zh-CN;q=0.9' }))).toBe('zh');
    expect(await languageOf(await get('/login', { 'accept-language': 'de-DE' }))).toBe('en');
    expect(await languageOf(await get('/login'))).toBe('en');
  });

  it('follows the language the visitor keeps (the cookie the client writes) over the browser’s', async () => {
    const res = await get('/login', { cookie: 'theme=x; language=fr', 'accept-language': 'en-US' });
    expect(await languageOf(res)).toBe('fr');
    expect(await languageOf(await get('/login', { cookie: 'language=xx', 'accept-language': 'zh' }))).toBe('zh');
  });

  it('allows its inline stylesheet by hash, and nothing else inline', async () => {
    const policy = (await get('/login')).headers.get('content-security-policy')!;
    const styleSrc = /style-src ([^;]+)/.exec(policy)![1]!;
    expect(styleSrc).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    expect(styleSrc).not.toContain('unsafe-inline');
    expect(/script-src ([^;]+)/.exec(policy)![1]).toBe("'self'");
  });

  it('leaves every other route to the single-page app', async () => {
    const res = await get('/users');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(files['index.html']);
    expect(await (await get('/password/forgot')).text()).toBe(files['index.html']);
  });
});
