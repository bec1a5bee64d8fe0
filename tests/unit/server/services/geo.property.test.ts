import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { departementFor, normalizePostalCode, postalCodesByDepartement } from '../../../../server/services/geo';

// The postal code → department mapping against its reference, the communes of
// @etalab/decoupage-administratif, read here on their own (not through the code under test).

interface Commune {
  type: string;
  departement?: string;
  codesPostaux?: string[];
}
const communes = createRequire(import.meta.url)('@etalab/decoupage-administratif/data/communes.json') as Commune[];

/** Every postal code of a current commune → the departments of the communes it serves. */
const reference = new Map<string, Set<string>>();
for (const c of communes) {
  if (c.type !== 'commune-actuelle' || !c.departement) continue;
  for (const code of c.codesPostaux ?? []) reference.set(code, (reference.get(code) ?? new Set()).add(c.departement));
}
const codes = [...reference.keys()].sort();
/** Departments that have a commune with a postal code. */
const departements = new Set([...reference.values()].flatMap((deps) => [...deps]));

/** A code as people and spreadsheets write it: spaces anywhere, the leading zero dropped by a number cell. */
const written = (code: string) =>
  fc.oneof(
    fc.constant(code),
    fc.nat({ max: 4 }).map((at) => `${code.slice(0, at + 1)} ${code.slice(at + 1)}`),
    fc.constant(` ${code}\t`),
    fc.constant(Number(code)),
  );

describe('postal code → department, against the reference communes', () => {
  it('maps every postal code of the reference to a department one of its communes is in', () => {
    expect(codes.length).toBeGreaterThan(6000);
    const wrong = codes.filter((code) => !reference.get(code)!.has(departementFor(code)));
    expect(wrong).toEqual([]);
  });

  it('knows every department of the reference, and lists every code under the department it maps to', () => {
    const listed = postalCodesByDepartement();
    expect(new Set(listed.keys())).toEqual(departements);
    for (const [departement, list] of listed) for (const pc of list) expect(departementFor(pc.code), pc.code).toBe(departement);
    expect([...listed.values()].reduce((n, l) => n + l.length, 0)).toBe(codes.length);
  });

  it('finds the same department however the code is written', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...codes).chain((code) => fc.tuple(fc.constant(code), written(code))),
        ([code, form]) => departementFor(form) === departementFor(code),
      ),
      { numRuns: 2000 },
    );
  });

  it('splits Corsica at 20200 and keeps the overseas collectivities apart, as the reference does', () => {
    for (const code of codes.filter((c) => c.startsWith('20'))) expect(departementFor(code), code).toBe(code < '20200' ? '2A' : '2B');
    const overseas = codes.filter((c) => c.startsWith('97'));
    for (const code of overseas) {
      const expected = code === '97133' ? '977' : code === '97150' ? '978' : code.slice(0, 3);
      expect(departementFor(code), code).toBe(expected);
    }
    expect(overseas.filter((c) => /^97[1-6]/.test(c)).length).toBeGreaterThan(100);
    // Monaco has its own postal codes (98000) and no French commune.
    expect(departementFor('98000')).toBe('');
  });

  it('answers "" for any five digits the reference does not know, never a guess from the prefix', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{5}$/), (code) => reference.has(code) || departementFor(code) === ''),
      { numRuns: 5000 },
    );
  });

  it('never throws on any input, and answers "" or a department of the reference', () => {
    const anything = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: fc.constantFrom(...'0123456789 \t\u00a0-.'), maxLength: 12 }),
      fc.double(),
      fc.integer(),
      fc.constantFrom(null, undefined, '__proto__', 'constructor', 'toString', '\u0000', '\ud800'),
    );
    fc.assert(
      fc.property(anything, (input) => {
        const dep = departementFor(input as string);
        return dep === '' || departements.has(dep);
      }),
      { numRuns: 1500 },
    );
  });

  it('normalises without losing a known code: a code made canonical maps where the code does', () => {
    fc.assert(
      fc.property(fc.constantFrom(...codes), (code) => normalizePostalCode(code) === code && normalizePostalCode(Number(code)) === code),
      { numRuns: 1000 },
    );
  });
});
