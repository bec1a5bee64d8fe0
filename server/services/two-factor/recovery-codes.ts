import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/connection';

const COUNT = 10;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

// 80 random bits each: with only their SHA-256 kept, a dump cannot be searched back to a code.
const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** 16 base-32 characters, shown as XXXX-XXXX-XXXX-XXXX; typed back with or without dashes. */
function drawCode(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out.match(/.{4}/g)!.join('-');
}

/** Replaces the account's recovery codes by ten new ones; answers them, the only time they are seen. */
export async function issueRecoveryCodes(q: Queryable, userId: number): Promise<string[]> {
  const codes = Array.from({ length: COUNT }, drawCode);
  await q.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  await q.query('INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])', [userId, codes.map((c) => hashCode(c.replace(/-/g, '')))]);
  return codes;
}

/** Spends a recovery code (normalised: no dashes, upper case): true once, false for an unknown or used one. */
export async function spendRecoveryCode(q: Queryable, userId: number, code: string): Promise<boolean> {
  const { rowCount } = await q.query('UPDATE recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [
    userId,
    hashCode(code),
  ]);
  return rowCount === 1;
}

export async function recoveryCodesLeft(q: Queryable, userId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL', [userId]);
  return rows[0]!.n;
}
