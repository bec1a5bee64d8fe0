import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { create as tarCreate, extract as tarExtract } from 'tar';
import { openPglite, type Db } from './connection';
import { lockDataDir } from './pglite-lock';

// A backup of the embedded database is one .tar.gz: `backup.json` (what it is), `pglite/` (the
// data folder, copied while no statement runs) and `exports/` (the export files, when they are
// kept in DATA_DIR). `tar tzf` lists it; `restoreBackup` puts it back.

const MANIFEST = 'backup.json';
const FORMAT = 'lead-console-backup';

export interface BackupSource {
  db: Db;
  pgliteDir: string;
  /** DATA_DIR/exports, or undefined when export files live in object storage (S3_URL). */
  exportsDir: string | undefined;
}

export interface BackupStats {
  bytes: number;
  /** How long statements waited while the data folder was copied. */
  frozenMs: number;
}

/**
 * Writes a backup of a running database into `out`. The data folder is copied beside itself while
 * statements wait (a copy-on-write clone where the file system has them), then packed from that
 * copy while the server goes on; the copy is removed afterwards. Export files are never rewritten
 * once published, so they are packed as they are.
 */
export async function writeBackup(source: BackupSource, out: Writable): Promise<BackupStats> {
  if (!source.db.frozen) throw new Error('writeBackup: only a PGlite database kept in a folder can be copied');
  const staging = `${source.pgliteDir}.backup-${randomBytes(6).toString('hex')}`;
  try {
    let frozenMs = 0;
    await source.db.frozen(async () => {
      const started = performance.now();
      // The lock file of the running server is not part of the database.
      const filter = (src: string) => !/[\\/]postmaster\.(pid|opts)$/.test(src);
      await cp(source.pgliteDir, join(staging, 'pglite'), { recursive: true, mode: constants.COPYFILE_FICLONE, filter });
      frozenMs = performance.now() - started;
    });
    const withExports = source.exportsDir !== undefined && existsSync(source.exportsDir);
    if (withExports) {
      // Finished files only: one being written is a .part until it is complete.
      await cp(source.exportsDir!, join(staging, 'exports'), { recursive: true, mode: constants.COPYFILE_FICLONE, filter: (src) => !src.endsWith('.part') });
    }
    await writeFile(
      join(staging, MANIFEST),
      JSON.stringify({ format: FORMAT, version: 1, created_at: new Date().toISOString(), database: 'pglite', exports: withExports }, null, 2),
    );
    let bytes = 0;
    const pack = tarCreate({ cwd: staging, gzip: true, portable: true }, [MANIFEST, 'pglite', ...(withExports ? ['exports'] : [])]);
    await pipeline(
      Readable.from(pack),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          bytes += chunk.length;
          yield chunk;
        }
      },
      out,
    );
    return { bytes, frozenMs: Math.round(frozenMs) };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Leads per status, exports and customers: what a restore shows, and the backup test compares. */
export async function databaseCounts(db: Pick<Db, 'query'>) {
  const statuses = await db.query<{ entry_status: string; n: number }>('SELECT entry_status, count(*)::int AS n FROM leads GROUP BY 1 ORDER BY 1');
  const one = async (sql: string) => (await db.query<{ n: number }>(sql)).rows[0].n;
  return {
    leads: Object.fromEntries(statuses.rows.map((r) => [r.entry_status, r.n])) as Record<string, number>,
    exports: await one('SELECT count(*)::int AS n FROM exports'),
    customers: await one('SELECT count(*)::int AS n FROM customers'),
  };
}

/**
 * Puts a backup back into `pgliteDir` (and its export files into `exportsDir`), the server
 * stopped. A database already there is kept beside it, renamed `<dir>.before-restore-<time>`; if
 * the restored one does not open, it is put back and nothing has changed. Answers the restored
 * database's counts.
 */
export async function restoreBackup(file: string, target: { pgliteDir: string; exportsDir: string | undefined }) {
  await mkdir(dirname(target.pgliteDir), { recursive: true });
  const unlock = lockDataDir(target.pgliteDir);
  const staging = `${target.pgliteDir}.restore-${randomBytes(6).toString('hex')}`;
  let previous: string | undefined;
  try {
    await mkdir(staging, { recursive: true });
    await tarExtract({
      file,
      cwd: staging,
      strict: true,
      // Only what a backup holds: no absolute path, no '..', no link out of the folder.
      filter: (path, entry) => (path === MANIFEST || /^(pglite|exports)(\/|$)/.test(path)) && !('type' in entry && /Link/.test(String(entry.type))),
    }).catch(() => {
      throw new Error(`${file} n'est pas une archive .tar.gz lisible`);
    });
    const manifest = JSON.parse(await readFile(join(staging, MANIFEST), 'utf8').catch(() => '{}')) as { format?: string; version?: number };
    if (manifest.format !== FORMAT || manifest.version !== 1 || !existsSync(join(staging, 'pglite'))) {
      throw new Error(`${file} n'est pas une sauvegarde de la console (npm run backup)`);
    }
    if (existsSync(target.pgliteDir) && (await readdir(target.pgliteDir)).length > 0) {
      previous = `${target.pgliteDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(target.pgliteDir, previous);
    } else {
      await rm(target.pgliteDir, { recursive: true, force: true });
    }
    await rename(join(staging, 'pglite'), target.pgliteDir);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    unlock();
    throw err;
  }
  unlock();

  let counts: Awaited<ReturnType<typeof databaseCounts>>;
  try {
    const db = await openPglite(target.pgliteDir);
    try {
      counts = await databaseCounts(db);
    } finally {
      await db.close();
    }
  } catch (err) {
    await rm(target.pgliteDir, { recursive: true, force: true });
    if (previous) await rename(previous, target.pgliteDir);
    await rm(staging, { recursive: true, force: true });
    throw new Error(`La base restaurée ne s'ouvre pas (${(err as Error).message}) : rien n'a été changé`);
  }

  let exportFiles = 0;
  const saved = join(staging, 'exports');
  if (target.exportsDir && existsSync(saved)) {
    await mkdir(target.exportsDir, { recursive: true });
    for (const name of await readdir(saved)) {
      if (existsSync(join(target.exportsDir, name))) continue;
      await rename(join(saved, name), join(target.exportsDir, name));
      exportFiles++;
    }
  }
  await rm(staging, { recursive: true, force: true });
  return { counts, previous, exportFiles };
}
