import type { LandingColumn } from '../../../src/api/landings/contract';
import { departementFor, normalizePostalCode, zoneFor } from '../geo';
import { isCalendarDay } from './filters';

export type Cell = string | number | boolean | null | undefined;

/** Longest value a form cell may hold; anything longer is refused, never truncated. */
export const MAX_CELL_LENGTH = 5000;

type Outcome = { ok: true; value: string | number | null } | { ok: false; message: string };
const fail = (message: string): Outcome => ({ ok: false, message });

/** French numbers as 0612345678: +33/0033 prefixes and separators dropped, a lost leading zero restored. */
export function normalizePhone(raw: string): string | undefined {
  let s = raw.replace(/[\s.\-()/]/g, '');
  const intl = /^(?:\+|00)(33|262|269|590|594|596)(\d{9})$/.exec(s);
  if (intl) s = `0${intl[2]}`;
  else if (/^[1-9]\d{8}$/.test(s)) s = `0${s}`;
  return /^0[1-9]\d{8}$/.test(s) ? s : undefined;
}

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
  const first = (type: LandingColumn['type']) => {
    const col = columns.find((c) => c.type === type && data[c.key] !== null && data[c.key] !== undefined);
    return col ? String(data[col.key]) : null;
  };
  const postal = first('postal_code');
  const departement = postal ? departementFor(postal) : '';
  return { departement, zone_climatique: zoneFor(departement), phone: first('phone'), email: first('email') };
}

/** A null-prototype record, so that keys such as __proto__ or constructor stay plain data. */
export const plainRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** Reads an own property only (never an inherited one such as `constructor`). */
export const own = (obj: Record<string, unknown>, key: string): Cell => (Object.prototype.hasOwnProperty.call(obj, key) ? (obj[key] as Cell) : undefined);
