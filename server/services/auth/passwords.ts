import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// OWASP Password Storage Cheat Sheet: scrypt N=2^17, r=8, p=1. N is PASSWORD_HASH_COST's power of two.
let params = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LEN = 64;

/** Sets N = 2^cost for the hashes made from now on; existing hashes keep the parameters they were made with. */
export function setPasswordCost(cost: number): void {
  params = { ...params, N: 2 ** cost };
  decoys.clear();
}

function scrypt(password: string, salt: Buffer, p: typeof params): Promise<Buffer> {
  const opts: ScryptOptions = { ...p, maxmem: 256 * p.N * p.r };
  return new Promise((resolve, reject) => scryptCb(password.normalize('NFKC'), salt, KEY_LEN, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/** `scrypt$N$r$p$salt$hash`, all base64url, so the parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  const expected = Buffer.from(hash, 'base64url');
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const decoys = new Map<number, Promise<string>>();
/** A hash of nothing anyone knows, at the current cost: unknown accounts are checked against it so timing stays the same. */
export function decoyHash(): Promise<string> {
  let decoy = decoys.get(params.N);
  if (!decoy) decoys.set(params.N, (decoy = hashPassword(randomBytes(16).toString('hex'))));
  return decoy;
}
