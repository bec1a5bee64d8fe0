/**
 * Settings every server and seed of the tests runs with. scrypt at N = 2^10 instead of 2^17: the
 * same code and hash format, a thousand times cheaper, where each sign-in and seeded account
 * otherwise costs half a second of a core (about ten minutes of CI).
 */
export const TEST_ENV = { PASSWORD_HASH_COST: '10' } as const;
