import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';

describe('loadConfig', () => {
  it('defaults to port 3000, ./data and PGlite with the demo, and passwords at scrypt N = 2^17 (the tests set 2^10)', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ PORT: 3000, HOST: '0.0.0.0', TOKEN_TTL_HOURS: 12, BODY_LIMIT_MB: 1, LOG_LEVEL: 'info', TRUST_PROXY: false, seedDemo: true });
    expect(c.PASSWORD_HASH_COST).toBe(17);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(true);
    expect(c.dataDir).toBe(resolve('data'));
    expect(c.pgliteDir).toBe(resolve('data', 'pglite'));
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('seeds PostgreSQL only when SEED_DEMO says so, and never when SEED_DEMO=0', () => {
    const url = 'postgres://app@db/leads';
    expect(loadConfig({ DATABASE_URL: url }).seedDemo).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: url, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('reads numbers from strings and treats empty variables as unset', () => {
    const c = loadConfig({ PORT: '8080', TOKEN_TTL_HOURS: '0.5', BODY_LIMIT_MB: '', DATA_DIR: '/srv/leads' });
    expect(c).toMatchObject({ PORT: 8080, TOKEN_TTL_HOURS: 0.5, BODY_LIMIT_MB: 1, dataDir: '/srv/leads', pgliteDir: '/srv/leads/pglite' });
  });

  it('refuses bad values with a French message naming each variable', () => {
    expect(() => loadConfig({ PORT: 'abc', ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'short' })).toThrow(
      /Configuration invalide :\n {2}PORT: .+\n {2}ADMIN_EMAIL: .+\n {2}ADMIN_PASSWORD: .+/,
    );
    expect(() => loadConfig({ SEED_DEMO: 'yes' })).toThrow(/SEED_DEMO/);
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/LOG_LEVEL/);
  });

  it('asks no second factor by default; REQUIRE_2FA and SECRETS_KEY refuse what they cannot use', () => {
    expect(loadConfig({}).REQUIRE_2FA).toBe('none');
    expect(loadConfig({ REQUIRE_2FA: 'admins' }).REQUIRE_2FA).toBe('admins');
    expect(() => loadConfig({ REQUIRE_2FA: 'yes' })).toThrow(/REQUIRE_2FA vaut admins, all ou none/);
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ SECRETS_KEY: key }).SECRETS_KEY).toBe(key);
    expect(() => loadConfig({ SECRETS_KEY: 'c2hvcnQ=' })).toThrow(/SECRETS_KEY doit contenir 32 octets/);
  });

  it('takes PUBLIC_URL and TABOOLA_API_URL only as http(s) addresses; Backstage by default', () => {
    expect(loadConfig({}).TABOOLA_API_URL).toBe('https://backstage.taboola.com');
    const c = loadConfig({
      PUBLIC_URL: 'https://console.example.fr',
      TABOOLA_API_URL: 'http://127.0.0.1:4000',
      TABOOLA_CLIENT_ID: 'id',
      TABOOLA_CLIENT_SECRET: 'secret',
    });
    expect(c).toMatchObject({ PUBLIC_URL: 'https://console.example.fr', TABOOLA_API_URL: 'http://127.0.0.1:4000', TABOOLA_CLIENT_ID: 'id' });
    expect(() => loadConfig({ PUBLIC_URL: 'console.example.fr' })).toThrow(/PUBLIC_URL doit être une adresse http\(s\) complète/);
    expect(() => loadConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ TABOOLA_API_URL: 'ftp://backstage' })).toThrow(/TABOOLA_API_URL/);
  });

  it('keeps export files in DATA_DIR unless S3_URL names object storage, with its bucket and both credentials or none', () => {
    const plain = loadConfig({});
    expect(plain.S3_URL).toBeUndefined();
    expect(plain).toMatchObject({ S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true });
    const s3 = { S3_URL: 'http://127.0.0.1:9000', S3_BUCKET: 'lead-exports', S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'le-secret' };
    expect(loadConfig({ ...s3, S3_REGION: 'eu-west-3', S3_FORCE_PATH_STYLE: '0' })).toMatchObject({
      ...s3,
      S3_REGION: 'eu-west-3',
      S3_FORCE_PATH_STYLE: false,
    });
    expect(loadConfig({ S3_URL: s3.S3_URL, S3_BUCKET: s3.S3_BUCKET }).S3_ACCESS_KEY_ID).toBeUndefined();
    expect(() => loadConfig({ ...s3, S3_URL: 's3.example.fr' })).toThrow(/S3_URL doit être l'adresse http\(s\)/);
    expect(() => loadConfig({ ...s3, S3_BUCKET: '' })).toThrow(/S3_BUCKET est obligatoire quand S3_URL est défini/);
    expect(() => loadConfig({ ...s3, S3_BUCKET: 'Mon_Bucket' })).toThrow(/S3_BUCKET doit être un nom de bucket valide/);
    expect(() => loadConfig({ ...s3, S3_ACCESS_KEY_ID: '' })).toThrow(/S3_ACCESS_KEY_ID et S3_SECRET_ACCESS_KEY vont ensemble/);
    // The secret never appears in the message of a refused configuration.
    expect(() => loadConfig({ ...s3, S3_BUCKET: 'x' })).toThrow(expect.objectContaining({ message: expect.not.stringContaining('le-secret') }));
  });
});
