import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../../server/db/connection';
import { lockDataDir, thisHolder } from '../../../../server/db/pglite-lock';

const parents: string[] = [];
const freshDir = () => {
  parents.push(mkdtempSync(join(tmpdir(), 'lead-console-lock-')));
  return join(parents.at(-1)!, 'pglite');
};
const children: ChildProcess[] = [];
afterAll(() => {
  children.forEach((child) => child.kill('SIGKILL'));
  parents.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

/** A live process running `script` (ESM, TypeScript through tsx); resolves once it printed its first line. */
function liveProcess(script: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`child exited with ${code}`)));
  });
}
const lockModule = join(import.meta.dirname, '../../../../server/db/pglite-lock.ts');
const readLock = (dir: string) => JSON.parse(readFileSync(`${dir}.lock`, 'utf8')) as { pid: number; started?: string; boot?: string };

describe('lockDataDir', () => {
  it('refuses a data folder another live process holds, naming it, until released', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    expect(readLock(dir)).toEqual(thisHolder());
    expect(() => lockDataDir(dir)).toThrow(`La base PGlite ${dir} est déjà ouverte par le processus ${process.pid}`);
    release();
    expect(existsSync(`${dir}.lock`)).toBe(false);
    lockDataDir(dir)();
  });

  it('takes over a lock left by a process that died', () => {
    const dir = freshDir();
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(`${dir}.lock`, dead);
    const release = lockDataDir(dir);
    expect(readLock(dir).pid).toBe(process.pid);
    release();
  });

  it.runIf(process.platform === 'linux')('records the start time and boot of its holder', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    const lock = readLock(dir);
    expect(lock.started).toMatch(/^\d+$/);
    expect(lock.boot).toMatch(/^[0-9a-f-]{36}$/);
    release();
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose pid now belongs to another live process', async () => {
    const dir = freshDir();
    // The crashed server's record, whose pid the system has since given to an unrelated process.
    const other = await liveProcess('console.log("up"); setInterval(() => {}, 1000);');
    writeFileSync(`${dir}.lock`, JSON.stringify({ ...thisHolder(), pid: other.pid }));
    const release = lockDataDir(dir);
    expect(readLock(dir)).toEqual(thisHolder());
    release();
  });

  it.runIf(process.platform === 'linux')('takes over a bare-pid lock (older versions) written before its pid’s process started', async () => {
    const dir = freshDir();
    const other = await liveProcess('console.log("up"); setInterval(() => {}, 1000);');
    writeFileSync(`${dir}.lock`, String(other.pid));
    const crashed = new Date(Date.now() - 60_000);
    utimesSync(`${dir}.lock`, crashed, crashed);
    lockDataDir(dir)();
    // Written after that process started, the same bare pid still names a live holder.
    writeFileSync(`${dir}.lock`, String(other.pid));
    expect(() => lockDataDir(dir)).toThrow(`déjà ouverte par le processus ${other.pid}`);
  });

  it.runIf(process.platform === 'linux')(
    'refuses a lock that another live process took, and takes it once that process is killed',
    async () => {
      const dir = freshDir();
      const holder = await liveProcess(
        `const { lockDataDir } = await import(${JSON.stringify(lockModule)}); lockDataDir(${JSON.stringify(dir)}); console.log("locked"); setInterval(() => {}, 1000);`,
      );
      expect(readLock(dir).pid).toBe(holder.pid);
      expect(() => lockDataDir(dir)).toThrow(`déjà ouverte par le processus ${holder.pid}`);
      const exited = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await exited;
      // SIGKILL runs no exit handler: the lock file stays behind, and is taken over.
      expect(readLock(dir).pid).toBe(holder.pid);
      lockDataDir(dir)();
    },
    30_000,
  );
});

describe('openPglite', () => {
  it('opens a data folder once at a time', async () => {
    const dir = freshDir();
    const db = await openPglite(dir);
    await expect(openPglite(dir)).rejects.toThrow(/déjà ouverte/);
    await db.exec('CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)');
    await db.close();
    const again = await openPglite(dir);
    expect((await again.query('SELECT n FROM kept')).rows).toEqual([{ n: 1 }]);
    await again.close();
  }, 60_000);
});
