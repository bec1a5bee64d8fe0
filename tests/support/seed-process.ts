import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { TEST_ENV } from './test-env';

const root = resolve(import.meta.dirname, '../..');

/**
 * `npm run seed -- --leads N` in a child process on the database of `env` (DATA_DIR or
 * DATABASE_URL): the demo on an empty database, then N more leads. With PGlite, before any
 * server opens the folder.
 */
export async function seedProcess(env: Record<string, string>, leads = 0): Promise<void> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/db/seed-cli.ts', '--leads', String(leads)], {
    cwd: root,
    env: { ...process.env, ...TEST_ENV, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  proc.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((ok) => proc.once('close', ok));
  if (code !== 0) throw new Error(`seed failed (${code}): ${errors}`);
}
