import type { LandingColumn } from '../../../src/api/landings/contract';

/** Who a sale reaches, for a customer's dedupe window: the lead's phone digits and email. */
export interface Person {
  phone: string | null;
  email: string | null;
}

const firstOfType = (data: Record<string, unknown>, columns: Pick<LandingColumn, 'key' | 'type'>[], type: LandingColumn['type']) => {
  const column = columns.find((c) => c.type === type);
  const value = column ? data[column.key] : undefined;
  return value === null || value === undefined ? '' : String(value);
};

/**
 * The person of a lead: `phone` = the digits of its first phone column, an 11-digit number's
 * leading 33 replaced by 0 ('+33 6 12 34 56 78' → '0612345678'), null without digits; `email` =
 * its first email column trimmed and lower-cased, null when empty.
 */
export function personOf(data: Record<string, unknown>, columns: Pick<LandingColumn, 'key' | 'type'>[]): Person {
  const digits = firstOfType(data, columns, 'phone').replace(/\D/g, '');
  const phone = digits.length === 11 && digits.startsWith('33') ? `0${digits.slice(2)}` : digits;
  const email = firstOfType(data, columns, 'email').trim().toLowerCase();
  return { phone: phone || null, email: email || null };
}
