import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { cpuSeconds } from './cpu';

/** A PostgreSQL of its own for a test that stops, restarts or kills the database. */
export interface ThrowawayPostgres {
  url: string;
  /** Stops it (`fast`: sessions are ended, as an operator's restart does). */
  stop(): void;
  start(): void;
  /** The postmaster killed with SIGKILL, as a crash does; `start()` recovers from the WAL. */
  kill(): void;
  /** Stops it and removes its folder. */
  remove(): void;
  /** CPU seconds the database has used so far: the postmaster and its backends, those that ended included. */
  cpuSeconds(): number;
}

const bin = () => {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
};

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/**
 * initdb in a temporary folder, on a free port of 127.0.0.1, trust auth, like `.ci/run`. The server
 * refuses to run as root, so as root it runs as the `postgres` user. It writes without fsync and,
 * unless `durable`, acknowledges commits before their WAL is written: fast, but a `kill()` then
 * loses the last commits, as a production server (synchronous_commit on) never does.
 */
export async function throwawayPostgres(opts: { durable?: boolean } = {}): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'lead-console-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  const root = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', `${bin()}/${tool}`, ...args], { stdio: 'pipe' })
      : execFileSync(`${bin()}/${tool}`, args, { stdio: 'pipe' });
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off${opts.durable ? '' : ' -c synchronous_commit=off'}`;
  const start = () => run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o', options, 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    kill: () => {
      // The postmaster and its backends together, as a power cut does: a backend left alive holds
      // the shared memory and the next start refuses to run.
      const pid = readPid(data);
      const children = childrenOf(pid);
      for (const p of [pid, ...children]) process.kill(p, 'SIGKILL');
      waitUntilGone([pid, ...children]);
    },
    cpuSeconds: () => {
      const pid = readPid(data);
      return [pid, ...childrenOf(pid)].reduce((sum, p) => sum + cpuSeconds(p, true), 0);
    },
    remove: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const readPid = (data: string) => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);

const childrenOf = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)])
    .toString()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);

function waitUntilGone(pids: number[]) {
  const alive = (p: number) => {
    try {
      process.kill(p, 0);
      return true;
    } catch {
      return false;
    }
  };
  const until = Date.now() + 10_000;
  while (pids.some(alive) && Date.now() < until) execFileSync('sleep', ['0.05']);
}

/** The names of the databases tests make, and of those one run of a suite makes (`run`), which it drops when it ends. */
const testDatabases = (run?: string) => `lc_test_${run ? `${run}_` : ''}`;

/**
 * A new database on the PostgreSQL server of `serverUrl`, empty or a copy of `template` with its
 * settings too (ALTER DATABASE … SET, which a copy leaves behind: migration 012's); answers its URL.
 * Made for a run of a suite (`run`), it is dropped with that run's others (`dropRunDatabases`).
 */
export async function freshPostgresDatabase(serverUrl: string, { template, run }: { template?: string; run?: string } = {}): Promise<string> {
  const name = `${testDatabases(run)}${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  if (template) {
    const { rows } = await client.query<{ setting: string }>(
      `SELECT unnest(setconfig) AS setting FROM pg_db_role_setting WHERE setrole = 0 AND setdatabase = (SELECT oid FROM pg_database WHERE datname = $1)`,
      [template],
    );
    for (const { setting } of rows) {
      const [key, value] = [setting.slice(0, setting.indexOf('=')), setting.slice(setting.indexOf('=') + 1)];
      await client.query(`ALTER DATABASE ${name} SET ${key} = ${client.escapeLiteral(value)}`);
    }
  }
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Drops the databases a run of a suite made on the PostgreSQL server of `serverUrl`, closing any
 * connection a test left open to them.
 */
export async function dropRunDatabases(serverUrl: string, run: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  const { rows } = await client.query<{ name: string }>('SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)', [testDatabases(run)]);
  for (const { name } of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  await client.end();
}
