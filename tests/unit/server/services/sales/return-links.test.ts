import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../../server/config';
import { returnToken, returnUrl, saleOfToken } from '../../../../../server/services/sales/return-links';

const dataDir = mkdtempSync(join(tmpdir(), 'return-links-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const configWith = (key: string, extra: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, SECRETS_KEY: key, ...extra });

describe('return links', () => {
  const key = randomBytes(32).toString('base64');
  const config = configWith(key, { PUBLIC_URL: 'https://console.example' });

  it('name their sale with 256 bits only the server can make, and nothing else', () => {
    const token = returnToken(config, 42);
    expect(token).toMatch(/^42\.[A-Za-z0-9_-]{43}$/);
    expect(saleOfToken(config, token)).toBe(42);
    // The same key, the same link: nothing stored, every instance agrees.
    expect(saleOfToken(configWith(key), token)).toBe(42);
    const mac = token.split('.')[1]!;
    expect(saleOfToken(config, `43.${mac}`)).toBeNull();
    expect(saleOfToken(config, `42.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`)).toBeNull();
    // The last character carries 4 of the MAC's bits and 2 unused ones: another spelling of the same bytes is refused too.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(mac.at(-1)!);
    expect(saleOfToken(config, `42.${mac.slice(0, -1)}${'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last ^ 1]}`)).toBeNull();
    expect(saleOfToken(configWith(randomBytes(32).toString('base64')), token)).toBeNull();
    for (const malformed of ['', '42', '42.', `042.${mac}`, `-1.${mac}`, `42.${mac}=`, `42.${mac}.x`])
      expect(saleOfToken(config, malformed), malformed).toBeNull();
  });

  it('are PUBLIC_URL and the page, or the path alone without it', () => {
    expect(returnUrl(config, 7)).toBe(`https://console.example/api/retours/${returnToken(config, 7)}`);
    const bare = configWith(key);
    expect(returnUrl(bare, 7)).toBe(`/api/retours/${returnToken(bare, 7)}`);
  });
});
