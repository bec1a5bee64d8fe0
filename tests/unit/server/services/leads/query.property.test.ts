import { randomBytes } from 'node:crypto';
import { parse as parseQueryString } from 'node:querystring';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Landing } from '../../../../../src/api/landings/contract';
import { fixedColumns, leadListQuery, leadListSearchParams } from '../../../../../src/api/leads/contract';
import { Params } from '../../../../../server/db/params';
import { AppError } from '../../../../../server/errors';
import { decodeCursor, encodeCursor } from '../../../../../server/services/leads/cursor';
import { formTypeOf, resolveColumn } from '../../../../../server/services/leads/columns';
import { containsOperator, containsText, filtersFromQuery, leadConditions } from '../../../../../server/services/leads/filters';
import { parse } from '../../../../../server/validate';

// The lead list's query string as the route reads it (server/routes/leads.ts: the contract, the
// column filters, the sort and the cursor) under arbitrary input: a result, or the project's 422.

const landings: Landing[] = [
  {
    id: 1,
    key: 'pac',
    name: 'PAC',
    kind: 'standard',
    category: 'pac',
    zone_climatique: true,
    columns: [
      { key: 'nom', label: 'Nom', type: 'text', required: true },
      { key: 'surface', label: 'Surface', type: 'number', required: false },
      { key: 'date_rdv', label: 'Rendez-vous', type: 'date', required: false },
      { key: 'toiture', label: 'Toiture', type: 'select', required: false, options: ['tuile', 'ardoise'] },
      { key: 'cp', label: 'Code postal', type: 'postal_code', required: true },
    ],
    thank_you_url: null,
    max_buyers: 1,
  },
  {
    id: 2,
    key: 'pv',
    name: 'PV',
    kind: 'standard',
    category: 'pv',
    zone_climatique: false,
    columns: [{ key: 'telephone', label: 'Téléphone', type: 'phone', required: true }],
    thank_you_url: null,
    max_buyers: 1,
  },
];
const columns = [...fixedColumns, 'nom', 'surface', 'date_rdv', 'toiture', 'cp', 'telephone'];

/** Runs what the list route runs before the database; answers the SQL conditions and the sort. */
function readListQuery(raw: Record<string, string | string[]>, key: Buffer) {
  const query = parse(leadListQuery, raw);
  const params = new Params();
  const where = leadConditions(landings, query.entry_status, filtersFromQuery(raw), params);
  const sort = resolveColumn(landings, query._sort, params, '_sort');
  const cursor = query._cursor ? decodeCursor(key, query._cursor, sort) : undefined;
  return { where, params: params.values, sort, cursor };
}

/** Passes when `fn` returns, or throws the project's 422 with a message; anything else fails the property. */
function resultOr422(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err.status).toBe(422);
    expect(err.code).toBe('validation_failed');
    expect(err.message).not.toBe('');
  }
}

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    '<>',
    '2025-02-30<>',
    '2025-01-01<>2025-12-31',
    "'; DROP TABLE leads; --",
    '%_\\',
    '__proto__',
    'constructor',
    '1e3',
    '-1',
    '0x10',
    '\u0000',
  ),
  fc.stringMatching(/^(\d{4}-\d{2}-\d{2})?<>(\d{4}-\d{2}-\d{2})?$/),
);
const name = fc.oneof(fc.constantFrom(...columns, '__proto__', 'constructor', 'toString', 'inexistante', ''), fc.string({ maxLength: 30 }));
const param = fc.oneof(
  fc.constantFrom('_limit', '_offset', '_sort', '_order', 'entry_status', '_cursor', '_other'),
  name.map((n) => `filter[${n}]`),
  name.map((n) => `in[${n}]`),
  name.map((n) => `date[${n}]`),
  name,
);
const rawQuery = fc.dictionary(param, fc.oneof(hostile, fc.array(hostile, { minLength: 1, maxLength: 3 })), { maxKeys: 6 });

describe('lead list query: filters, sorts and cursors', () => {
  const key = randomBytes(32);

  it('any parsed query string gives conditions or a 422, never another error', () => {
    fc.assert(
      fc.property(rawQuery, (raw) => resultOr422(() => readListQuery(raw, key))),
      { numRuns: 3000 },
    );
  });

  it('any text as a query string, split as a server does, gives conditions or a 422', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'&=[]%_<>-0123456789abcdefilnorst_'), maxLength: 80 }), (qs) => {
        resultOr422(() => readListQuery(parseQueryString(qs) as Record<string, string | string[]>, key));
      }),
      { numRuns: 3000 },
    );
  });

  it('binds every value: the SQL is the same whatever the values (but for LIKE where a text has no letter), and they are all parameters', () => {
    // (A date range typed in a contains filter of a date column is a range, another shape.)
    const value = fc.string({ minLength: 1, maxLength: 500 }).filter((v) => !/^(\d{4}-\d{2}-\d{2})?<>(\d{4}-\d{2}-\d{2})?$/.test(v));
    const filtersOf = (contains: Record<string, string>, values: Record<string, string[]>) =>
      parseQueryString(leadListSearchParams({}, { contains, values }).toString()) as Record<string, string | string[]>;
    const same = <T>(record: Record<string, T>, to: (v: T) => T) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, to(v)]));
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...columns), value, { maxKeys: 4 }),
        fc.dictionary(fc.constantFrom(...columns), fc.array(value, { minLength: 1, maxLength: 3 }), { maxKeys: 4 }),
        (contains, values) => {
          const read = readListQuery(filtersOf(contains, values), key);
          // A text without letters is searched with LIKE, as '0' is; one with letters with ILIKE, as 'v' is.
          const operator = (key: string, v: string) => containsOperator(containsText(formTypeOf(landings, key), v));
          const plainText = Object.fromEntries(
            Object.entries(contains).map(([key, v]) => [key, ['v', '0'].find((p) => operator(key, p) === operator(key, v))!]),
          );
          const plain = readListQuery(
            filtersOf(
              plainText,
              same(values, (list) => list.map(() => 'v')),
            ),
            key,
          );
          expect(read.where).toEqual(plain.where);
          // A phone or a postal code is looked for as the stored values are written.
          const searched = Object.entries(contains).map(([key, v]) => containsText(formTypeOf(landings, key), v));
          for (const v of [...searched, ...Object.values(values).flat()]) {
            expect(
              read.params.some(
                (p) => p === v || (Array.isArray(p) && p.includes(v)) || (typeof p === 'string' && p.includes(v.replace(/[\\%_]/g, (c) => `\\${c}`))),
              ),
            ).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads back the cursor a page made, for that sort only', () => {
    const printed: Record<string, fc.Arbitrary<string>> = {
      bigint: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
      numeric: fc.integer().map((n) => String(n / 100)),
      timestamptz: fc
        .date({ min: new Date('1970-01-01'), max: new Date('2999-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().replace('T', ' ').replace('Z', '+00')),
      // Up to the 5,000 characters a cell may hold: long ones travel by reference, the cursor stays short.
      text: fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary', minLength: 100, maxLength: 5000 })),
      date: fc.string(),
    };
    const sortAndValue = fc.constantFrom(...columns).chain((sortKey) => {
      const sort = resolveColumn(landings, sortKey, new Params(), '_sort');
      return fc.tuple(fc.constant(sort), printed[sort.type]);
    });
    fc.assert(
      fc.property(sortAndValue, fc.constantFrom(...columns), fc.maxSafeNat(), ([sort, value], otherKey, id) => {
        const cursor = encodeCursor(key, sort.key, value, id);
        expect(parse(leadListQuery, { _cursor: cursor })._cursor).toBe(cursor);
        const [read, readId] = decodeCursor(key, cursor, sort);
        expect(readId).toBe(id);
        if (read !== null) expect(read).toBe(value);
        else expect(Buffer.byteLength(JSON.stringify(value))).toBeGreaterThan(600);
        if (otherKey !== sort.key) expect(() => decodeCursor(key, cursor, resolveColumn(landings, otherKey, new Params(), '_sort'))).toThrow(AppError);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a cursor changed in any way, or signed with another key, with a 422', () => {
    const sort = resolveColumn(landings, 'created_at', new Params(), '_sort');
    const cursor = encodeCursor(key, 'created_at', '2025-03-01 10:00:00.123+00', 4242);
    const tampered = fc.oneof(
      fc
        .tuple(fc.nat({ max: cursor.length - 1 }), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=é'))
        .map(([at, ch]) => cursor.slice(0, at) + ch + cursor.slice(at + 1)),
      fc.nat({ max: cursor.length - 1 }).map((at) => cursor.slice(0, at) + cursor.slice(at + 1)),
      fc.nat({ max: cursor.length }).map((at) => cursor.slice(0, at)),
      fc.string().map((s) => cursor + s),
      fc.tuple(fc.constantFrom('created_at', 'id'), fc.string(), fc.integer()).map(([k, v, id]) => encodeCursor(randomBytes(32), k, v, id)),
      fc.string({ unit: 'binary' }),
    );
    fc.assert(
      fc.property(
        tampered.filter((t) => t !== cursor),
        (t) => {
          try {
            decodeCursor(key, t, sort);
          } catch (err) {
            return err instanceof AppError && err.status === 422 && 'errors' in err.extras;
          }
          return false;
        },
      ),
      { numRuns: 3000 },
    );
  });
});
