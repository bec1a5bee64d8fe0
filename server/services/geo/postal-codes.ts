import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface Commune {
  type: string;
  departement?: string;
  codesPostaux?: string[];
  population?: number;
}

export interface PostalCode {
  code: string;
  departement: string;
  /** Inhabitants served by this code within its department (a city's split evenly among its codes). */
  population: number;
}

let byCode: Map<string, PostalCode> | undefined;

/**
 * Reads the communes of @etalab/decoupage-administratif (INSEE data, Licence Ouverte) once, on
 * first use. A postal code shared by communes of several departments (05110 serves communes of
 * both 04 and 05) goes to the department where most of its inhabitants live. The data already
 * says 20000–20199 are Corse-du-Sud (2A) and 20200+ Haute-Corse (2B), that 97133 is
 * Saint-Barthélemy (977) and 97150 Saint-Martin (978), and that 94390 (Orly airport) is in 91.
 */
function table(): Map<string, PostalCode> {
  if (byCode) return byCode;
  const require = createRequire(import.meta.url);
  const file = require.resolve('@etalab/decoupage-administratif/data/communes.json');
  const communes = JSON.parse(readFileSync(file, 'utf8')) as Commune[];
  const weights = new Map<string, Map<string, number>>();
  for (const c of communes) {
    if (c.type !== 'commune-actuelle' || !c.departement) continue;
    const codes = c.codesPostaux ?? [];
    // A city's inhabitants are shared among its codes (Paris has 21); +1 so that communes
    // without a census figure still count.
    const share = ((c.population ?? 0) + 1) / codes.length;
    for (const code of codes) {
      const perDep = weights.get(code) ?? new Map<string, number>();
      perDep.set(c.departement, (perDep.get(c.departement) ?? 0) + share);
      weights.set(code, perDep);
    }
  }
  byCode = new Map();
  for (const [code, perDep] of weights) {
    const [departement, population] = [...perDep].reduce((best, cur) => (cur[1] > best[1] ? cur : best));
    byCode.set(code, { code, departement, population });
  }
  return byCode;
}

/**
 * A postal code as typed or imported, made canonical: spaces dropped, and the leading zero that
 * spreadsheets strip restored ('1400' → '01400'). Anything else comes back trimmed, unchanged.
 */
export function normalizePostalCode(input: string | number | null | undefined): string {
  const s = String(input ?? '').replace(/\s+/g, '');
  return /^\d{4}$/.test(s) ? `0${s}` : s;
}

/** Reads the table now rather than at its first use (the server, once it listens). */
export function loadPostalCodes(): void {
  table();
}

/** The department ('30', '2A', '974', …) of a French postal code; '' when the code is unknown. */
export function departementFor(postalCode: string | number | null | undefined): string {
  return table().get(normalizePostalCode(postalCode))?.departement ?? '';
}

/** Every known postal code, grouped by department, in code order. */
export function postalCodesByDepartement(): Map<string, PostalCode[]> {
  const grouped = new Map<string, PostalCode[]>();
  for (const pc of [...table().values()].sort((a, b) => a.code.localeCompare(b.code))) {
    const list = grouped.get(pc.departement) ?? [];
    list.push(pc);
    grouped.set(pc.departement, list);
  }
  return grouped;
}
