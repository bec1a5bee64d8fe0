import { z } from 'zod';

/** Largest value of a serial (int4) key: a larger number names nothing. */
export const maxSerialId = 2_147_483_647;

const invalidId = 'Identifiant invalide';

/** A serial id in a path: decimal digits only ('0x1', ' 1' or '1e0' are not ids). */
export const serialIdParam = z
  .string()
  .regex(/^\d{1,10}$/, invalidId)
  .transform(Number)
  .pipe(z.number().positive(invalidId).max(maxSerialId, invalidId));

/** An integer of the query string, or a number when built in code: decimal digits only, so an empty value is no 0. */
export const queryInt = (min: number, max: number, message: string) =>
  z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\d{1,15}$/, message)
        .transform(Number),
    ])
    .pipe(z.number().int(message).min(min, message).max(max, message));
