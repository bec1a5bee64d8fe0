import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config';
import { secretKey } from '../two-factor/secret-box';

/**
 * A sale's return link holds `<sale id>.<HMAC-SHA256 of the id>` (256 bits, base64url), keyed by a
 * key derived from the server's secret (SECRETS_KEY or DATA_DIR/secrets.key): nothing is stored, a
 * link names one sale only, and none can be forged without the key. Its use ends with the sale's
 * return window, checked on every use.
 */
const keys = new WeakMap<Config, Buffer>();

function linkKey(config: Config): Buffer {
  let key = keys.get(config);
  if (!key) {
    // Its own key, so that a link's MAC never doubles as anything else sealed with the secret.
    key = createHmac('sha256', secretKey(config)).update('lead-console:sale-return-link:v1').digest();
    keys.set(config, key);
  }
  return key;
}

const macOf = (config: Config, saleId: number) => createHmac('sha256', linkKey(config)).update(`sale:${saleId}`).digest();

export const returnToken = (config: Config, saleId: number) => `${saleId}.${macOf(config, saleId).toString('base64url')}`;

/** The sale a token names, or null when it is malformed or forged. */
export function saleOfToken(config: Config, token: string): number | null {
  const match = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const saleId = Number(match[1]);
  // Compared as written: a non-canonical spelling of the right bytes is not the link that was sent.
  const expected = Buffer.from(macOf(config, saleId).toString('base64url'));
  return timingSafeEqual(Buffer.from(match[2]), expected) ? saleId : null;
}

/** The link a delivery carries: PUBLIC_URL and the page's path (the path alone without PUBLIC_URL). */
export function returnUrl(config: Config, saleId: number): string {
  const path = `/api/retours/${returnToken(config, saleId)}`;
  return config.PUBLIC_URL ? new URL(path, config.PUBLIC_URL).toString() : path;
}
