import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The real server in a child process, as `npm start` runs it (the esbuild bundle `dist-server/main.mjs`). */
export interface ServerProcess {
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  proc: ChildProcess;
  /** Where its stdout and stderr go. */
  logFile: string;
  /** Sends `signal` (SIGKILL by default: a crash) and resolves once the process is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGTERM (the server closes its jobs, HTTP and database), SIGKILL after 30 s. */
  stop(): Promise<void>;
}

const root = resolve(import.meta.dirname, '../..');
let built = false;
const alive = new Set<ChildProcess>();
// A test that throws or times out must not leave servers behind holding ports and data folders.
process.once('exit', () => {
  for (const proc of alive) proc.kill('SIGKILL');
});

/**
 * Starts the server with `env` over a clean configuration (port 0 on 127.0.0.1, no
 * DATABASE_URL unless given, logs at warn) and resolves when it prints its address. Give
 * DATA_DIR (PGlite's folder and the export files) and/or DATABASE_URL in `env`.
 */
export async function startServerProcess({ env, logFile, readyTimeoutMs = 120_000 }: { env: Record<string, string>; logFile?: string; readyTimeoutMs?: number }): Promise<ServerProcess> {
  // Once per test process: a rebuild would delete the bundle under a running server.
  if (!built) {
    if (spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('server build failed');
    built = true;
  }
  const log = logFile ?? join(env.DATA_DIR ?? tmpdir(), `server-${process.pid}-${Date.now()}.log`);
  const out = createWriteStream(log, { flags: 'a' });
  const proc = spawn(process.execPath, ['dist-server/main.mjs'], {
    cwd: root,
    // MALLOC_ARENA_MAX as scripts/start.mjs sets it.
    env: { ...serverEnv(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', MALLOC_ARENA_MAX: '2', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(proc);
  // 'close': the process ended and its output was read to the end.
  const exited = new Promise<void>((ok) =>
    proc.once('close', () => {
      alive.delete(proc);
      out.end(ok);
    }),
  );
  proc.stderr!.pipe(out, { end: false });

  const url = await new Promise<string>((ok, fail) => {
    let seen = '';
    let ready = false;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      fail(new Error(`server not ready after ${readyTimeoutMs} ms; log: ${log}`));
    }, readyTimeoutMs);
    proc.stdout!.setEncoding('utf8');
    proc.stdout!.on('data', (chunk: string) => {
      out.write(chunk);
      if (ready) return;
      seen += chunk;
      const found = /prête : (http:\/\/\S+)/.exec(seen);
      if (found) {
        ready = true;
        clearTimeout(timer);
        ok(found[1].replace('localhost', '127.0.0.1'));
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`server exited before it was ready (${proc.signalCode ?? proc.exitCode}):\n${tail(log)}`));
    });
  });

  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    await exited;
  };
  return {
    url,
    proc,
    logFile: log,
    kill,
    async stop() {
      const hard = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      await kill('SIGTERM');
      clearTimeout(hard);
    },
  };
}

/**
 * `npm run seed -- --leads N` in a child process on the database of `env` (DATA_DIR or
 * DATABASE_URL): the demo on an empty database, then N more leads.
 */
export async function seedProcess(env: Record<string, string>, leads = 0): Promise<void> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/db/seed-cli.ts', '--leads', String(leads)], {
    cwd: root,
    env: { ...serverEnv(), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  proc.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((ok) => proc.once('exit', ok));
  if (code !== 0) throw new Error(`seed failed (${code}): ${errors}`);
}

/** Signs in through the API and returns the bearer token. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** The last lines of a log file, for a failure message. */
export function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** This process's environment without the settings of the server under test (the test gives those). */
function serverEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'SEED_DEMO', 'PUBLIC_URL', 'S3_URL', 'NODE_ENV', 'VITEST']) delete env[key];
  return env;
}
