import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../server/db/connection';
import { lockDataDir } from '../../server/db/pglite-lock';

const parents: string[] = [];
const freshDir = () => {
  parents.push(mkdtempSync(join(tmpdir(), 'lead-console-lock-')));
  return join(parents.at(-1)!, 'pglite');
};
afterAll(() => parents.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('lockDataDir', () => {
  it('refuses a data folder another live process holds, naming it, until released', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
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
    expect(readFileSync(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    release();
  });
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
