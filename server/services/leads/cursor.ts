import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/connection';
import { validationFailed } from '../../errors';
import type { ResolvedColumn } from './columns';
import { isCalendarDay } from './normalize';

// A page's cursor is the last row's sort value and id, signed: a client can hand back what it was
// given, not a position or a value of its own making (migration 075 draws the key once per
// database, so every instance reads and signs alike).

export const cursorError = () => validationFailed({ _cursor: 'Curseur invalide' }, 'Curseur invalide');

const keys = new WeakMap<Queryable, Promise<Buffer>>();

/** The signing key of cursors, read once per connection. */
export function cursorKey(db: Queryable): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = db.query<{ key: Buffer | Uint8Array }>("SELECT key FROM server_keys WHERE name = 'cursor'").then(({ rows }) => {
      if (!rows[0]) throw new Error('server_keys has no cursor key: migration 075 did not run');
      return Buffer.from(rows[0].key);
    });
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 16).toString('base64url');

/** Sort values as PostgreSQL prints them, per column type: a value that would not cast gets a 422, never a failed cast. */
const sortValueShape: Partial<Record<ResolvedColumn['type'], RegExp>> = {
  bigint: /^-?\d{1,19}$/,
  numeric: /^-?\d{1,40}(\.\d{1,40})?$/,
  timestamptz: /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?([+-]\d{2}(:\d{2})?)?$/,
};

function isSortValue(type: ResolvedColumn['type'], value: string): boolean {
  const shape = sortValueShape[type];
  if (!shape) return true; // text sorts, form dates included, take any string
  const m = shape.exec(value);
  if (!m) return false;
  if (type === 'bigint') return BigInt(value) >= -(2n ** 63n) && BigInt(value) < 2n ** 63n;
  return type !== 'timestamptz' || isCalendarDay(m[1]);
}

/** Sort values longer than this (a long free text) travel by reference: the cursor then names the row only. */
const INLINE_BYTES = 600;

/** A cursor after the row `id` whose sort value is `sortValue` (null: read from the row itself). */
export function encodeCursor(key: Buffer, sortKey: string, sortValue: string | null, id: number): string {
  const value = sortValue !== null && Buffer.byteLength(JSON.stringify(sortValue)) <= INLINE_BYTES ? sortValue : null;
  const payload = Buffer.from(JSON.stringify([sortKey, value, id])).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/**
 * The sort value (null: by reference to the row) and id of a cursor this server signed for this
 * sort, or a 422. The value's shape is still checked: a form column whose type changed between two
 * pages would not cast.
 */
export function decodeCursor(key: Buffer, cursor: string, sort: ResolvedColumn): [string | null, number] {
  const [payload, signature = '', ...rest] = cursor.split('.');
  const given = Buffer.from(signature);
  const expected = Buffer.from(mac(key, payload));
  if (rest.length || given.length !== expected.length || !timingSafeEqual(given, expected)) throw cursorError();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw cursorError();
  }
  if (
    Array.isArray(value) &&
    value.length === 3 &&
    value[0] === sort.key &&
    (value[1] === null || (typeof value[1] === 'string' && isSortValue(sort.type, value[1]))) &&
    Number.isSafeInteger(value[2])
  ) {
    return [value[1], value[2]];
  }
  throw cursorError();
}
