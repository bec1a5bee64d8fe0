/**
 * `npm run backup -- <file.tar.gz>`: a consistent backup of the embedded database (and of the
 * export files kept in DATA_DIR), made by the running server when there is one, else by opening
 * the folder. Same configuration as the server (DATA_DIR). On PostgreSQL, use pg_dump
 * (docs/operations.md, 'Backups').
 */
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config';
import { writeBackup } from './backup';
import { requestBackup } from './backup-socket';
import { openPglite } from './connection';

const [target] = process.argv.slice(2);
if (!target) {
  console.error('Usage : npm run backup -- <fichier.tar.gz>');
  process.exit(2);
}
const file = resolve(target);
const config = loadConfig();
if (config.DATABASE_URL || !config.pgliteDir) {
  console.error('DATABASE_URL est défini : sauvegardez PostgreSQL avec pg_dump (docs/operations.md, « Sauvegardes »).');
  process.exit(2);
}
const pgliteDir = config.pgliteDir;

try {
  const started = Date.now();
  let how = 'par le serveur en marche';
  if (!(await requestBackup(pgliteDir, file))) {
    // No server: this process opens the folder (and fails in French if some other process holds it).
    how = 'base ouverte par cette commande, serveur arrêté';
    const db = await openPglite(pgliteDir);
    const part = `${file}.part`;
    try {
      await writeBackup({ db, pgliteDir, exportsDir: config.S3_URL ? undefined : join(config.dataDir, 'exports') }, createWriteStream(part));
      await rename(part, file);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    } finally {
      await db.close();
    }
  }
  const { size } = await stat(file);
  console.log(`Sauvegarde écrite : ${file} (${(size / 1024 / 1024).toFixed(1)} Mo, ${((Date.now() - started) / 1000).toFixed(1)} s, ${how})`);
} catch (err) {
  console.error(`Sauvegarde impossible : ${(err as Error).message}`);
  process.exit(1);
}
