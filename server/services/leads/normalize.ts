import type { LandingColumn } from '../../../src/api/landings/contract';
import { departementFor, normalizePostalCode, zoneFor } from '../geo';

export type Cell = string | number | boolean | null | undefined;

/** Whether 'YYYY-MM-DD' names a day of the calendar, as PostgreSQL reads it: it has no year 0. */
export const isCalendarDay = (s: string) => {
  const t = Date.parse(`${s}T00:00:00Z`);
  return !s.startsWith('0000') && !Number.isNaN(t) && new Date(t).toISOString().startsWith(s);
};

/** Longest value a form cell may hold; anything longer is refused, never truncated. */
export const MAX_CELL_LENGTH = 5000;

type Outcome = { ok: true; value: string | number | null } | { ok: false; message: string };
const fail = (message: string): Outcome => ({ ok: false, message });

const phoneSeparators = /[\s.\-()/]/g;
const countryCodes = '33|262|269|590|594|596';
const phoneCountry = new RegExp(`^(?:\\+|00)(?:${countryCodes})`);
const intlPhone = new RegExp(`^(?:\\+|00)(?:${countryCodes})(\\d{9})$`);

/** French numbers as 0612345678: +33/0033 prefixes and separators dropped, a lost leading zero restored. */
export function normalizePhone(raw: string): string | undefined {
  let s = raw.replace(phoneSeparators, '');
  const intl = intlPhone.exec(s);
  if (intl) s = `0${intl[1]}`;
  else if (/^[1-9]\d{8}$/.test(s)) s = `0${s}`;
  return /^0[1-9]\d{8}$/.test(s) ? s : undefined;
}

/**
 * A piece of a phone number as the stored numbers write it, for a 'contains' filter: separators
 * dropped and a country prefix read as the leading zero, so that `+33 6 12` finds 0612….
 */
export const phoneSearchText = (text: string) => text.replace(phoneSeparators, '').replace(phoneCountry, '0');

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function normalizeDate(raw: Cell): string | undefined {
  if (typeof raw === 'number' && raw > 0 && raw < 100_000) {
    // A spreadsheet serial day (1900 date system, as Excel and SheetJS write them).
    return new Date(Date.UTC(1899, 11, 30) + Math.round(raw) * 86_400_000).toISOString().slice(0, 10);
  }
  const s = String(raw).trim();
  const fr = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  const day = fr ? `${fr[3]}-${fr[2].padStart(2, '0')}-${fr[1].padStart(2, '0')}` : s.slice(0, 10);
  // A date-time (ISO, or as a spreadsheet cell reads: 'YYYY-MM-DD HH:MM:SS') gives its day.
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && isCalendarDay(day) && (fr || s.length === 10 || /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s)) ? day : undefined;
}

/** Checks and canonicalises one form value against its column definition. */
export function normalizeCell(column: LandingColumn, raw: Cell): Outcome {
  if (typeof raw === 'string' && raw.length > MAX_CELL_LENGTH) return fail(`Valeur trop longue (${MAX_CELL_LENGTH} caractères au plus)`);
  const empty = raw === null || raw === undefined || String(raw).trim() === '';
  if (empty) return column.required ? fail('Champ obligatoire') : { ok: true, value: null };
  const s = String(raw).trim();
  switch (column.type) {
    case 'phone': {
      const phone = normalizePhone(s);
      return phone ? { ok: true, value: phone } : fail('Numéro de téléphone invalide');
    }
    case 'email': {
      const email = s.toLowerCase();
      return email.length <= 254 && emailPattern.test(email) ? { ok: true, value: email } : fail('Adresse email invalide');
    }
    case 'postal_code': {
      const code = normalizePostalCode(s);
      return /^\d{5}$/.test(code) ? { ok: true, value: code } : fail('Code postal invalide');
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : /^-?\d+([.,]\d+)?$/.test(s) ? Number(s.replace(',', '.')) : NaN;
      return Number.isFinite(n) ? { ok: true, value: n } : fail('Nombre invalide');
    }
    case 'date': {
      const day = normalizeDate(raw);
      return day ? { ok: true, value: day } : fail('Date invalide (AAAA-MM-JJ ou JJ/MM/AAAA)');
    }
    case 'select': {
      const option = column.options?.find((o) => o.toLowerCase() === s.toLowerCase());
      return option !== undefined || !column.options?.length ? { ok: true, value: option ?? s } : fail('Valeur non prévue');
    }
    default:
      return { ok: true, value: s };
  }
}

/** The fields derived from form data: department and climate zone from the postal code, phone and email. */
export function deriveFields(columns: LandingColumn[], data: Record<string, unknown>) {
  // The first value of each type, in one pass (an import derives them for every row).
  let postal: string | null = null;
  let phone: string | null = null;
  let email: string | null = null;
  for (const { key, type } of columns) {
    const value = own(data, key);
    if (value === null || value === undefined) continue;
    if (type === 'postal_code') postal ??= String(value);
    else if (type === 'phone') phone ??= String(value);
    else if (type === 'email') email ??= String(value);
  }
  const departement = postal ? departementFor(postal) : '';
  return { departement, zone_climatique: zoneFor(departement), phone, email };
}

/**
 * Sets a form value. A plain assignment keeps the record a fast object (a null-prototype record is
 * a dictionary: an import's records took 3 times longer to serialize, docs/performance.md); a
 * `__proto__` key is defined instead, so that it stays a value rather than setting the prototype.
 * Read such a record with `own`, as every record read back from the database.
 */
export function setValue(record: Record<string, unknown>, key: string, value: unknown) {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** Reads an own property only (never an inherited one such as `constructor`). */
export const own = (obj: Record<string, unknown>, key: string): Cell => (Object.prototype.hasOwnProperty.call(obj, key) ? (obj[key] as Cell) : undefined);
