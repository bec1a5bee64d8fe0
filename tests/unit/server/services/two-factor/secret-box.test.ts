import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../../../../server/config';
import { seal, unseal } from '../../../../../server/services/two-factor/secret-box';

describe('secret box (TOTP secrets at rest)', () => {
  it('draws DATA_DIR/secrets.key once (mode 0600) and reads back what it sealed, never the same ciphertext twice', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-box-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const config = loadConfig({ DATA_DIR: dir });
    const a = seal(config, 'JBSWY3DPEHPK3PXP');
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(seal(config, 'JBSWY3DPEHPK3PXP')).not.toBe(a);
    expect(unseal(config, a)).toBe('JBSWY3DPEHPK3PXP');
    expect(statSync(join(dir, 'secrets.key')).mode & 0o777).toBe(0o600);
    // Another process on the same folder reads the same key.
    expect(unseal(loadConfig({ DATA_DIR: dir }), a)).toBe('JBSWY3DPEHPK3PXP');
    expect(Buffer.from(readFileSync(join(dir, 'secrets.key'), 'utf8'), 'base64')).toHaveLength(32);
  });

  it('says which key changed when a secret no longer opens, and refuses a tampered one', () => {
    const sealed = seal(loadConfig({ SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') }), 'SECRET');
    expect(() => unseal(loadConfig({ SECRETS_KEY: Buffer.alloc(32, 2).toString('base64') }), sealed)).toThrow(/SECRETS_KEY .* a changé/);
    const same = loadConfig({ SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') });
    const parts = sealed.split('.');
    parts[3] = Buffer.from('SECRET!').toString('base64url');
    expect(() => unseal(same, parts.join('.'))).toThrow();
    expect(() => unseal(same, 'garbage')).toThrow(/illisible/);
  });
});
