import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { TEST_ENV } from './test-env';

const root = resolve(import.meta.dirname, '../..');

/** The real server (`server/main.ts`) as a child process, to be killed and started again as a crash and its restart do. */
export interface ServerProcess {
  /** Base URL of the running server; a restart listens on a new port unless PORT was given. */
  readonly url: string;
  readonly proc: ChildProcess;
  /** What it printed (stdout and stderr) since it last started. */
  readonly output: string;
  /** Sends `signal` (SIGKILL: a crash) and resolves once the process has ended. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again with the same environment (after `kill`). */
  restart(): Promise<void>;
  /** A request with a JSON body and a bearer token; a network failure (the server killed) rejects. */
  request(method: string, path: string, opts?: { body?: unknown; token?: string; headers?: Record<string, string> }): Promise<Response>;
  /** Signs in and answers the bearer token. */
  login(email: string, password: string): Promise<string>;
}

export const SERVER_ADMIN = { email: 'faults@test.local', password: 'faults-password-1' };

/**
 * Starts `node --import tsx server/main.ts` with `env` over the test's environment: DATA_DIR
 * (PGlite's folder and the export files) or DATABASE_URL, PORT 0 on 127.0.0.1, no demo, an
 * administrator SERVER_ADMIN; `nodeArgs` go to node (e.g. --cpu-prof). Resolves once it says it is ready.
 */
export async function startServerProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const fullEnv = {
    ...process.env,
    ...TEST_ENV,
    DATABASE_URL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'error',
    ADMIN_EMAIL: SERVER_ADMIN.email,
    ADMIN_PASSWORD: SERVER_ADMIN.password,
    ...env,
  };
  let current: { url: string; proc: ChildProcess; output: string } | undefined;
  const start = () =>
    new Promise<void>((ok, fail) => {
      const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], { cwd: root, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      const state = { url: '', proc, output: '' };
      current = state;
      const onOutput = (chunk: Buffer) => {
        state.output += chunk.toString();
        const ready = /prête : (http:\/\/\S+)/.exec(state.output);
        if (ready && !state.url) {
          state.url = ready[1];
          ok();
        }
      };
      proc.stdout!.on('data', onOutput);
      proc.stderr!.on('data', onOutput);
      proc.once('exit', (code, signal) => {
        if (!state.url) fail(new Error(`the server exited before it was ready (${code ?? signal}):\n${state.output}`));
      });
    });
  await start();

  const server: ServerProcess = {
    get url() {
      return current!.url;
    },
    get proc() {
      return current!.proc;
    },
    get output() {
      return current!.output;
    },
    async kill(signal = 'SIGKILL') {
      const { proc } = current!;
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const ended = new Promise((r) => proc.once('exit', r));
      proc.kill(signal);
      await ended;
    },
    restart: start,
    request: (method, path, opts = {}) =>
      fetch(current!.url + path, {
        method,
        headers: {
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      }),
    async login(email, password) {
      const res = await server.request('POST', '/api/auth', { body: { email, password } });
      if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { token: string }).token;
    },
  };
  return server;
}
