import Papa from 'papaparse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ seedDemo: true });
});
afterAll(() => server.close());

it('gives every export of the demo a file that its download link serves', async () => {
  const { rows } = await server.ctx.db.query<{ token: string; filename: string; count: number; missing: number }>(
    `SELECT token, filename, count, (SELECT count(*)::int FROM exports WHERE storage_key IS NULL) AS missing
       FROM exports WHERE book_type = 'csv' ORDER BY id LIMIT 1`,
  );
  const csv = rows[0]!;
  expect(csv.missing).toBe(0);
  const res = await server.request('GET', `/api/exports/${csv.token}/${encodeURIComponent(csv.filename)}`);
  expect(res.status).toBe(200);
  const parsed = Papa.parse<string[]>((await res.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: true });
  expect(parsed.data.length - 1).toBe(csv.count);
});
