// GET /api/openapi.json describes every endpoint object the server registered, and docs/api.md
// cannot drift from it: its endpoint index is generated from it (UPDATE_API_DOC=1 rewrites it),
// every `METHOD /path` the reference names exists with that method, every endpoint is described,
// and an access written beside a route (a table's access column, a heading's '(public)' or
// '(admin)', an 'admin;' answer) is the endpoint's.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi/endpoints';
import { startServer, type TestServer } from './harness';

const docPath = join(import.meta.dirname, '../../docs/api.md');
const start = '<!-- endpoints:start (generated from GET /api/openapi.json: UPDATE_API_DOC=1 npx vitest run --project api tests/api/openapi.test.ts) -->';
const end = '<!-- endpoints:end -->';

interface Operation {
  summary: string;
  tags: string[];
  security?: unknown[];
}
type Paths = Record<string, Record<string, Operation>>;

let server: TestServer;
let paths: Paths;
beforeAll(async () => {
  server = await startServer();
  const res = await server.request('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  paths = openApiDocument.parse(await res.json()).paths as Paths;
});
afterAll(() => server.close());

/** '/api/customers/{id}' → '/customers/:_': docs/api.md writes paths without /api and names parameters its own way. */
const shape = (path: string) => path.replace(/^\/api/, '').replace(/\{\w+\}|:\w+/g, ':_');

const operations = () =>
  Object.entries(paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));

function index(): string {
  const rows = operations()
    .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
    .map(({ method, path, op }) => `| \`${method} ${path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1')}\` | ${op.tags[0]} | ${op.summary} |`);
  return [start, '', '| Call | Access | What |', '|---|---|---|', ...rows, '', end].join('\n');
}

describe('GET /api/openapi.json', () => {
  it('describes every registered route with its access as a security requirement, the admin area tagged', () => {
    const described = new Set(operations().map(({ method, path }) => `${method} ${path}`));
    for (const route of server.app.apiRoutes)
      expect(described, `${route.method} ${route.url}`).toContain(`${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(described.size).toBe(server.app.apiRoutes.length);
    for (const { method, path, op } of operations()) {
      const route = server.app.apiRoutes.find((r) => r.method === method && r.url.replace(/:(\w+)/g, '{$1}') === path)!;
      expect(op.tags, `${method} ${path}`).toEqual([route.auth]);
      expect(op.security, `${method} ${path}`).toEqual(route.auth === 'public' ? [] : [{ bearer: [] }]);
    }
  });

  it('describes request and answer schemas from the zod contracts', () => {
    const update = paths['/api/customers/{id}'].patch as unknown as {
      parameters: { name: string; in: string }[];
      requestBody: unknown;
      responses: Record<string, unknown>;
    };
    expect(update.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }));
    expect(JSON.stringify(update.requestBody)).toContain('webhook_url');
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422']));
  });
});

describe('docs/api.md', () => {
  const doc = () => readFileSync(docPath, 'utf8');

  it('holds the endpoint index generated from the description', () => {
    const text = doc();
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    expect(from, 'docs/api.md has no endpoint index').toBeGreaterThan(-1);
    const generated = index();
    if (process.env.UPDATE_API_DOC) writeFileSync(docPath, text.slice(0, from) + generated + text.slice(to + end.length));
    else expect(text.slice(from, to + end.length)).toBe(generated);
  });

  it('names only endpoints that exist, describes every one, with the access they have', () => {
    const text = doc();
    const prose = text.slice(0, text.indexOf(start)) + text.slice(text.indexOf(end) + end.length);
    const known = new Map(operations().map(({ method, path, op }) => [`${method} ${shape(path)}`, op.tags[0]]));
    const named = new Set<string>();
    const wrong: string[] = [];
    for (const line of prose.split('\n')) {
      for (const m of line.matchAll(/`(GET|POST|PATCH|PUT|DELETE) (\/[^`?\s]*)[^`]*`/g)) {
        const key = `${m[1]} ${shape(m[2])}`;
        named.add(key);
        const access = known.get(key);
        if (access === undefined) {
          wrong.push(`${m[0]}: no such endpoint`);
          continue;
        }
        const cells = line.startsWith('|') ? line.split('|').map((c) => c.trim()) : [];
        const said =
          /^#{3}.*\((public|admin)\)/.exec(line)?.[1] ??
          (['public', 'user', 'admin'].includes(cells[2]) ? cells[2] : /^admin;/.test(cells[2] ?? '') ? 'admin' : undefined);
        if (said !== undefined && said !== access) wrong.push(`${m[0]}: written ${said}, the endpoint is ${access}`);
      }
    }
    expect(wrong).toEqual([]);
    expect([...known.keys()].filter((k) => !named.has(k))).toEqual([]);
  });
});
