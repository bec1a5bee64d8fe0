import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCompressedCopies } from '../../scripts/precompress.mjs';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';

// A built front end as `vite build` leaves it: index.html, hashed assets, the licences, each text
// file with the .br and .gz copies the build's precompress step writes.
const dist = mkdtempSync(join(tmpdir(), 'lead-console-dist-'));
const script = `export const catalogue = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `message ${i} de la console`))};\n`;
const files: Record<string, string> = {
  'index.html': `<!doctype html><html lang="fr"><head><script type="module" src="/assets/index-AbCd1234.js"></script></head><body><div id="root"></div>${' '.repeat(2000)}</body></html>`,
  'assets/index-AbCd1234.js': script,
  'licenses/geodata-LICENSE.txt': 'Licence des données cartographiques.\n'.repeat(50),
};

let server: TestServer;
let token: string;

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  mkdirSync(join(dist, 'licenses'));
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dist, name), content);
    await writeCompressedCopies(join(dist, name));
  }
  server = await startServer({}, { distDir: dist });
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await server.close();
  rmSync(dist, { recursive: true, force: true });
});

/** A GET with the headers as given and the body as sent: fetch would ask for and undo compression itself. */
function rawGet(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((ok, fail) => {
    httpRequest(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}

const decode = (answer: { headers: Record<string, unknown>; body: Buffer }) =>
  answer.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(answer.body)
    : answer.headers['content-encoding'] === 'gzip'
      ? gunzipSync(answer.body)
      : answer.body;

describe('the built front end', () => {
  it('is sent precompressed by Accept-Encoding (brotli first, then gzip), each answer decoding to the file, Vary: Accept-Encoding', async () => {
    for (const [path, name] of [
      ['/assets/index-AbCd1234.js', 'assets/index-AbCd1234.js'],
      ['/licenses/geodata-LICENSE.txt', 'licenses/geodata-LICENSE.txt'],
    ]) {
      const original = readFileSync(join(dist, name));
      const br = await rawGet(path, { 'accept-encoding': 'gzip, deflate, br' });
      const gz = await rawGet(path, { 'accept-encoding': 'gzip' });
      const plain = await rawGet(path);
      expect([br.headers['content-encoding'], gz.headers['content-encoding'], plain.headers['content-encoding']]).toEqual(['br', 'gzip', undefined]);
      // The build's own copies, as they are: nothing compressed per request.
      expect(br.body.equals(readFileSync(join(dist, `${name}.br`)))).toBe(true);
      expect(gz.body.equals(readFileSync(join(dist, `${name}.gz`)))).toBe(true);
      for (const answer of [br, gz, plain]) {
        expect(answer.status).toBe(200);
        expect(decode(answer).equals(original)).toBe(true);
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
      }
      expect(br.body.length).toBeLessThan(original.length / 3);
    }
  });

  it("keeps hashed assets a year without revalidation; index.html, the app's routes and other files are revalidated", async () => {
    const asset = await rawGet('/assets/index-AbCd1234.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/login', '/landings_test/1', '/index.html', '/licenses/geodata-LICENSE.txt']) {
      const answer = await rawGet(path, { 'accept-encoding': 'br, gzip' });
      expect([path, answer.status, answer.headers['cache-control']]).toEqual([path, 200, 'no-cache']);
      expect(answer.headers.etag).toBeTruthy();
    }
    const app = await rawGet('/login', { 'accept-encoding': 'br, gzip' });
    expect(app.headers['content-encoding']).toBe('br');
    expect(app.headers['content-type']).toMatch(/^text\/html/);
    expect(decode(app).toString()).toBe(files['index.html']);
  });
});

describe('API answers', () => {
  it('are compressed from 1 kB by Accept-Encoding, whole, and decode to the bytes sent uncompressed', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const plain = await rawGet('/api/openapi.json', auth);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip']) {
      const answer = await rawGet('/api/openapi.json', { ...auth, 'accept-encoding': encoding });
      expect([answer.status, answer.headers['content-encoding']]).toEqual([200, encoding]);
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.body.length).toBeLessThan(plain.body.length / 3);
      expect(decode(answer).equals(plain.body)).toBe(true);
      // Compressed whole: sent with its length, not as a chunked stream.
      expect([answer.headers['content-length'], answer.headers['transfer-encoding']]).toEqual([String(answer.body.length), undefined]);
    }
    // Weights are honoured; an encoding the server lacks gets the answer as it is.
    for (const [accept, expected] of [
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.9', 'br'],
      ['deflate', undefined],
      ['identity', undefined],
    ] as const) {
      const answer = await rawGet('/api/openapi.json', { ...auth, 'accept-encoding': accept });
      expect([accept, answer.headers['content-encoding']]).toEqual([accept, expected]);
      expect(decode(answer).equals(plain.body)).toBe(true);
    }
    // Under 1 kB the bytes saved are not worth a compressor.
    const small = await rawGet('/api/me', { ...auth, 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('leave downloads as they are: the export file keeps its bytes and its Content-Length', async () => {
    const landing = await createLanding(server.ctx.db);
    const ids = await insertLeads(
      server.ctx.db,
      landing.id,
      Array.from({ length: 60 }, () => ({})),
    );
    const exported = await json<{ data: { url: string } }>(
      await server.request('POST', `/api/landings/data/${landing.id}/export`, { token, body: { bookType: 'csv', leads: ids } }),
    );
    const answer = await rawGet(exported.data.url, { 'accept-encoding': 'br, gzip' });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThan(1024);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
  });
});
