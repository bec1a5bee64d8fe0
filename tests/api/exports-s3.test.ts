import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../server/config';
import { s3Storage } from '../../server/services/exports/s3-storage';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';

const BUCKET = 'lead-exports';
const s3rverDir = mkdtempSync(join(tmpdir(), 's3rver-'));
let s3rver: S3rver;
let s3: Pick<Config, 'S3_URL' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY'>;
let client: S3Client;
let server: TestServer;
let token: string;
let landing: { id: number };

beforeAll(async () => {
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3rverDir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  s3 = { S3_URL: `http://127.0.0.1:${port}`, S3_BUCKET: BUCKET, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };
  client = new S3Client({ endpoint: s3.S3_URL, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  server = await startServer(s3);
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db);
});
afterAll(async () => {
  await server?.close();
  client?.destroy();
  await s3rver?.close();
  rmSync(s3rverDir, { recursive: true, force: true });
});

const objectKeys = async () => ((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key);
const storageKeyOf = async (exportToken: string) =>
  (await server.ctx.db.query<{ storage_key: string }>('SELECT storage_key FROM exports WHERE token = $1', [exportToken])).rows[0].storage_key;
const exportLeads = async (leads: number[], filename: string) =>
  server.request('POST', `/api/landings/data/${landing.id}/export`, {
    body: { bookType: 'csv', filename, leads, for_customer: 'Client Nord', rapport: null },
    token,
  });

describe('exports in S3-compatible storage', () => {
  it('writes the file to the bucket, never to the local folder, and serves the same bytes from there', async () => {
    const ids = await insertLeads(server.ctx.db, landing.id, [{ nom: 'Bucket' }, { nom: 'Seau' }, { nom: 'Cubo' }]);
    const res = await exportLeads(ids, 'Vente objet');
    expect(res.status).toBe(200);
    const { data } = await json<{ data: { url: string; token: string } }>(res);
    const key = await storageKeyOf(data.token);
    expect(await objectKeys()).toContain(key);
    expect(existsSync(join(server.dataDir, 'exports'))).toBe(false);

    const stored = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    const bytes = Buffer.from(await stored.Body!.transformToByteArray());
    const file = await fetch(server.url + data.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(bytes.toString('utf8')).toContain('Seau');
  });

  it('leaves no object behind when the export fails after its file was written, and the leads stay unsold', async () => {
    const ids = await insertLeads(server.ctx.db, landing.id, [{ nom: 'Échec' }]);
    const before = await objectKeys();
    // The audit line comes after the file: failing it makes the whole export roll back.
    await server.ctx.db.query(`CREATE FUNCTION fail_export_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.action = 'export' THEN RAISE EXCEPTION 'audit indisponible'; END IF; RETURN NEW; END $$`);
    await server.ctx.db.query('CREATE TRIGGER fail_export_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION fail_export_audit()');
    try {
      const res = await exportLeads(ids, 'Vente ratée');
      expect(res.status).toBe(500);
    } finally {
      await server.ctx.db.query('DROP TRIGGER fail_export_audit ON audit_log');
      await server.ctx.db.query('DROP FUNCTION fail_export_audit()');
    }
    expect(await objectKeys()).toEqual(before);
    const lead = await server.ctx.db.query<{ entry_status: string }>('SELECT entry_status FROM leads WHERE id = $1', [ids[0]]);
    expect(lead.rows[0].entry_status).toBe('new');
  });

  it('serves a download from an instance that did not write the file', async () => {
    const ids = await insertLeads(server.ctx.db, landing.id, [{ nom: 'Partagé' }]);
    const res = await exportLeads(ids, 'Vente partagée');
    const { data } = await json<{ data: { url: string } }>(res);
    const written = Buffer.from(await (await fetch(server.url + data.url)).arrayBuffer());

    if (process.env.TEST_DATABASE_URL) {
      // A second server on the same PostgreSQL database and bucket, with its own empty DATA_DIR.
      const other = await startServer({ ...s3, DATABASE_URL: server.ctx.config.DATABASE_URL });
      try {
        const file = await fetch(other.url + data.url);
        expect(file.status).toBe(200);
        expect(Buffer.from(await file.arrayBuffer()).equals(written)).toBe(true);
      } finally {
        await other.close();
      }
    } else {
      // PGlite in memory cannot be shared: without any local folder, the file can only come from the bucket.
      rmSync(join(server.dataDir, 'exports'), { recursive: true, force: true });
      const file = await fetch(server.url + data.url);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(written)).toBe(true);
    }
  });

  it('streams a file larger than one part as a multipart upload, and an abandoned one leaves nothing', async () => {
    const storage = s3Storage({
      endpoint: s3.S3_URL!,
      bucket: BUCKET,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const content = randomBytes(6 * 1024 * 1024 + 123);
    const upload = await storage.open('multipart.csv');
    for (let at = 0; at < content.length; at += 64 * 1024) {
      if (!upload.stream.write(content.subarray(at, at + 64 * 1024))) await new Promise((r) => upload.stream.once('drain', r));
    }
    await upload.finish();
    const file = await storage.get('multipart.csv');
    expect(file?.size).toBe(content.length);
    expect(Buffer.concat(await (file!.body as Readable).toArray()).equals(content)).toBe(true);
    await storage.remove('multipart.csv');
    expect(await storage.get('multipart.csv')).toBeUndefined();

    const abandoned = await storage.open('abandoned.csv');
    abandoned.stream.write(content);
    await abandoned.abort();
    expect(await storage.get('abandoned.csv')).toBeUndefined();
    expect(await objectKeys()).not.toContain('abandoned.csv');
  });

  it('reports an upload the storage refuses without leaving the writer waiting, and without the credentials', async () => {
    const storage = s3Storage({
      endpoint: s3.S3_URL!,
      bucket: 'missing-bucket',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const upload = await storage.open('refused.csv');
    const chunk = Buffer.alloc(256 * 1024, 'x');
    // More than one part, so the upload fails while the writer still writes.
    for (let i = 0; i < 40; i++) {
      if (!upload.stream.write(chunk)) await new Promise((r) => upload.stream.once('drain', r));
    }
    const err = await upload.finish().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^S3 Upload : NoSuchBucket \(404\)/);
    expect(Object.keys(err!)).toEqual([]);
  });
});
