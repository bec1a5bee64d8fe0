import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config';

// The TOTP secrets are encrypted with AES-256-GCM under a key kept out of the database
// (docs/decisions.md, 'Secrets at rest'): SECRETS_KEY, or else DATA_DIR/secrets.key, drawn on first
// use. A database dump or a PGlite backup then holds no usable secret.
const keys = new WeakMap<Config, Buffer>();

export function secretKey(config: Config): Buffer {
  let key = keys.get(config);
  if (key) return key;
  if (config.SECRETS_KEY) key = Buffer.from(config.SECRETS_KEY, 'base64');
  else {
    const file = join(config.dataDir, 'secrets.key');
    if (!existsSync(file)) {
      mkdirSync(config.dataDir, { recursive: true });
      // 'wx': two instances drawing at once keep the first key, the other one reads it below.
      try {
        writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  }
  if (key.length !== 32) throw new Error('SECRETS_KEY (ou DATA_DIR/secrets.key) doit contenir 32 octets en base64');
  keys.set(config, key);
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export function seal(config: Config, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(config), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function unseal(config: Config, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Secret chiffré illisible');
  const decipher = createDecipheriv('aes-256-gcm', secretKey(config), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('Secret TOTP indéchiffrable : SECRETS_KEY (ou DATA_DIR/secrets.key) a changé depuis son enregistrement');
  }
}
