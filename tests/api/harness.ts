import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { boot, type Booted } from '../../server/boot';
import { loadConfig, type Config } from '../../server/config';
import type { Queue } from '../../server/services/jobs';
import { frenchErrorProblem } from './error-shape';
import { freshPostgresDatabase as freshDatabase } from '../support/postgres';
import { TEST_ENV } from '../support/test-env';
import { until } from '../support/until';

/** A new empty database on the PostgreSQL server of `serverUrl`, dropped when the suite's run ends. */
export const freshPostgresDatabase = (serverUrl: string) => freshDatabase(serverUrl, { run: inject('apiPostgresRun') || undefined });

export interface TestServer extends Booted {
  /** Base URL of the listening server, e.g. http://127.0.0.1:40123 */
  url: string;
  dataDir: string;
  /** Sends a JSON request; `token` becomes the bearer header. */
  request(method: string, path: string, opts?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<Response>;
  /** Signs in and returns the bearer token. */
  login(email: string, password: string): Promise<string>;
  /** Sends `queue` a job without payload and waits until pg-boss has completed it. */
  runJob(queue: Queue<Record<string, never>>): Promise<void>;
}

export const ADMIN = { email: 'admin@test.local', password: 'admin-password-1' };

let migratedImage: Uint8Array | undefined;
/**
 * The migrated database the suite's global setup dumped (tests/api/migrated-image.ts), read once
 * into shared memory, which every server's PGlite reads without a copy of its own; none on
 * PostgreSQL.
 */
export function migratedPglite(): Uint8Array | undefined {
  const file = inject('apiPgliteImage');
  if (!file) return undefined;
  if (!migratedImage) {
    const bytes = readFileSync(file);
    migratedImage = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
    migratedImage.set(bytes);
  }
  return migratedImage;
}

/**
 * `dir` made a PGlite data folder holding the migrated image, as the server would leave it after
 * migrating a new folder itself (about 6 s of a core on disk, against 1.5 s). For the tests that
 * need a database on disk without being about creating one; on PostgreSQL, nothing.
 */
export async function migratedPgliteFolder(dir: string): Promise<void> {
  const image = migratedPglite();
  if (!image) return;
  await (await PGlite.create(dir, { loadDataDir: new Blob([new Uint8Array(image)]) })).close();
}

/**
 * Starts the real server on a fresh database: an in-memory PGlite (already migrated), or, when TEST_DATABASE_URL
 * names a PostgreSQL server, a new database created on it for this test file alone. With
 * `overrides.DATABASE_URL`, on that database (several instances sharing one).
 */
export async function startServer(overrides: Partial<Config> = {}, opts: { logStream?: DestinationStream; distDir?: string } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lead-console-'));
  const databaseUrl =
    overrides.DATABASE_URL ??
    (process.env.TEST_DATABASE_URL
      ? await freshDatabase(process.env.TEST_DATABASE_URL, { template: inject('apiPostgresTemplate'), run: inject('apiPostgresRun') })
      : undefined);
  const config = loadConfig(
    // TRUST_PROXY: tests play clients at many addresses through X-Forwarded-For.
    { ...TEST_ENV, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, TRUST_PROXY: '1' },
    // Every answer is parsed with its route's response contract (server/plugins/contracts.ts).
    {
      pgliteDir: undefined,
      pgliteImage: databaseUrl ? undefined : migratedPglite(),
      DATABASE_URL: databaseUrl,
      seedDemo: false,
      checkContracts: true,
      ...overrides,
    },
  );
  const booted = await boot(config, { logger: opts.logStream !== undefined, logStream: opts.logStream, distDir: opts.distDir });
  const address = await booted.app.listen({ port: 0, host: '127.0.0.1' });

  const request: TestServer['request'] = async (method, path, opts = {}) => {
    const res = await fetch(address + path, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...opts.headers,
      },
      body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    });
    // Every 4xx any API test meets must be a French { error, message } (tests/api/error-shape.ts).
    if (res.status >= 400 && res.status < 500 && method !== 'HEAD') {
      const problem = frenchErrorProblem(
        await res
          .clone()
          .json()
          .catch(() => undefined),
      );
      if (problem) throw new Error(`${method} ${path} answered ${res.status}: ${problem}`);
    }
    return res;
  };

  return {
    ...booted,
    async close() {
      await booted.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    url: address,
    dataDir,
    request,
    async login(email, password) {
      const res = await request('POST', '/api/auth', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    },
    async runJob(queue) {
      const id = await booted.ctx.jobs.send(queue, {});
      const completed = async () => {
        const state = (await booted.ctx.db.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [id])).rows[0]?.state;
        if (state === 'failed') throw new Error(`job ${queue.name} failed`);
        return state === 'completed';
      };
      await until(completed, 30_000, `job ${queue.name} completed`);
    },
  };
}
