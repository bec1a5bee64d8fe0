import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads } from './leads-support';

// Every text field of every request takes any text — arbitrary UTF-16 (lone surrogates
// included), NUL, control characters, 300 kB strings, malformed percent-encoding in URLs — and
// answers 2xx or 4xx, never 5xx. One property per field; each run changes that field only.

let server: TestServer;
let token: string;
let landing: { id: number; key: string };
let leadId: number;
let runs = 0;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db);
  [leadId] = await insertLeads(server.ctx.db, landing.id, [{}]);
});
afterAll(() => server.close());

const text = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\u001b[31m', '=cmd|calc', '__proto__', "'; DROP TABLE leads; --", '<script>'),
  },
  { weight: 1, arbitrary: fc.nat({ max: 300_000 }).map((n) => 'é'.repeat(n)) },
);
/** What a URL may carry: the text percent-encoded (lone surrogates cannot travel), or raw malformed escapes. */
const urlText = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => encodeURIComponent(s.replace(/\p{Cs}/gu, '\uFFFD'))) },
  { weight: 1, arbitrary: fc.constantFrom('%00', '%FF', '%E0%80', '%', '%%41', '%C3', 'a%00b', '%ED%A0%80', 'x'.repeat(4000)) },
);

/** A fresh address for every request: the intake and sign-in limits are not under test here. */
const ip = () => `10.${(runs >> 16) & 255}.${(runs >> 8) & 255}.${runs++ & 255}`;

async function expectNo5xx(method: string, path: string, body?: unknown, as: string | undefined = token) {
  const res = await server.request(method, path, { body, token: as, headers: { 'x-forwarded-for': ip() } });
  const answer = await res.text();
  if (res.status >= 500) throw new Error(`${method} ${path.slice(0, 200)} → ${res.status} ${answer.slice(0, 300)}`);
  // Every refusal says what in French, in the error envelope.
  if (res.status >= 400) expect(JSON.parse(answer)).toMatchObject({ error: expect.any(String), message: expect.any(String) });
}

const set = (base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> => {
  const [head, ...rest] = path;
  return { ...base, [head]: rest.length ? set((base[head] ?? {}) as Record<string, unknown>, rest, value) : value };
};

/** One property per text field of a JSON body. */
function bodyFields(
  name: string,
  method: string,
  path: () => string,
  base: () => Record<string, unknown>,
  fields: string[][],
  opts: { as?: string; numRuns?: number } = {},
) {
  for (const field of fields) {
    it(`${name}: ${field.join('.')}`, async () => {
      const as = 'as' in opts ? opts.as : token;
      await fc.assert(
        fc.asyncProperty(text, (value) => expectNo5xx(method, path(), set(base(), field, value), as)),
        { numRuns: opts.numRuns ?? 25 },
      );
    });
  }
}

describe('any text in any field answers 2xx or 4xx', () => {
  bodyFields(
    'sign-in',
    'POST',
    () => '/api/auth',
    () => ({ email: 'nobody@test.local', password: 'x' }),
    [['email'], ['username'], ['password'], ['code']],
    {
      as: undefined,
      // Each well-formed attempt costs a scrypt verification.
      numRuns: 6,
    },
  );
  bodyFields(
    'account creation',
    'POST',
    () => '/api/auth/register',
    () => ({ name: 'Nom', email: 'new@test.local' }),
    [['name'], ['email']],
  );
  bodyFields(
    'intake',
    'POST',
    () => `/api/intake/${landing.key}`,
    () => ({ nom: 'Dupont', telephone: '0612345678', code_postal: '30000' }),
    [['nom'], ['telephone'], ['email'], ['code_postal'], ['chauffage'], ['surface'], ['date_projet'], ['source'], ['utm_campaign'], ['visitor']],
    { as: undefined },
  );
  bodyFields(
    'status change of all matching',
    'POST',
    () => '/api/landings/data',
    () => ({ entry_status: 'archived', filter: { ids: [landing.id], entry_status: 'trashed', filters: {} } }),
    [['filter', 'filters', 'contains', 'nom'], ['filter', 'filters', 'dates', 'created_at'], ['entry_status']],
  );
  bodyFields(
    'export',
    'POST',
    () => `/api/landings/data/${landing.id}/export`,
    () => ({ bookType: 'csv', leads: [leadId + 1_000_000] }),
    [['filename'], ['for_customer'], ['bookType']],
  );
  bodyFields(
    'import',
    'POST',
    () => `/api/landings/${landing.id}/import/excel`,
    () => ({ form_import_from: 'Salon', data: [{ nom: 'A', telephone: '0612345678', code_postal: '30000' }], columns: {} }),
    [['form_import_from'], ['data', '0', 'nom'], ['data', '0', 'telephone'], ['columns', 'nom']],
  );

  it('import: any header (keys such as __proto__ or constructor included)', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (header) => {
        const body = `{"form_import_from":"Salon","data":[{${JSON.stringify(header)}:"x","nom":"A","telephone":"0612345678","code_postal":"30000"}]}`;
        await expectNo5xx('POST', `/api/landings/${landing.id}/import/excel`, body);
      }),
      { numRuns: 25 },
    );
  });

  for (const param of ['filter[nom]', 'in[telephone]', 'date[created_at]', 'filter[created_at]', '_sort', '_cursor', '_limit', 'entry_status', 'nom']) {
    it(`lead list query: ${param}`, async () => {
      await fc.assert(
        fc.asyncProperty(urlText, (value) => expectNo5xx('GET', `/api/landings/data/${landing.id}?${param}=${value}`)),
        { numRuns: 25 },
      );
    });
  }

  it('lead list query: any column name', async () => {
    await fc.assert(
      fc.asyncProperty(urlText, (column) => expectNo5xx('GET', `/api/landings/data/${landing.id}/count?filter[${column}]=x&in[${column}]=y`)),
      { numRuns: 25 },
    );
  });

  it('path parameters: intake key, landing ids, download token and name', async () => {
    await fc.assert(
      fc.asyncProperty(urlText, async (value) => {
        await expectNo5xx('POST', `/api/intake/${value}`, { nom: 'x' }, undefined);
        await expectNo5xx('GET', `/api/landings/data/${value}`);
        await expectNo5xx('GET', `/api/exports/${value}/${value}`, undefined, undefined);
      }),
      { numRuns: 25 },
    );
  });
});
