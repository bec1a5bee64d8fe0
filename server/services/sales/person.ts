import type { LandingColumn } from '../../../src/api/landings/contract';

/** The person a sale went to, as a customer's dedupe window compares it: same phone, or same email. */
export interface Person {
  phone: string | null;
  email: string | null;
}

const valueOf = (data: Record<string, unknown>, columns: Pick<LandingColumn, 'key' | 'type'>[], type: LandingColumn['type']): string | null => {
  const column = columns.find((c) => c.type === type);
  const v = column ? data[column.key] : undefined;
  return v === null || v === undefined ? null : String(v);
};

/**
 * The person of a lead: the digits of its first phone column (an 11-digit `33…` number read as
 * the national `0…` one, so `+33 6 12 34 56 78` and `06 12 34 56 78` are one person), and its
 * first email column trimmed and lower-cased; null when empty. `person_phone` and `person_email`
 * (migration 082) are the same definition in SQL, for the statements that sell in bulk.
 */
export function personOf(data: Record<string, unknown>, columns: Pick<LandingColumn, 'key' | 'type'>[]): Person {
  return { phone: personPhone(valueOf(data, columns, 'phone')), email: personEmail(valueOf(data, columns, 'email')) };
}

/** A phone as personOf compares it. */
export function personPhone(raw: string | null): string | null {
  const digits = (raw ?? '').replace(/[^0-9]/g, '');
  return digits.length === 11 && digits.startsWith('33') ? `0${digits.slice(2)}` : digits || null;
}

/** An email as personOf compares it. */
export const personEmail = (raw: string | null): string | null => (raw ?? '').trim().toLowerCase() || null;
