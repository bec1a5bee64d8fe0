/**
 * `npm run restore -- <file.tar.gz>`: puts a backup of `npm run backup` back into DATA_DIR, the
 * server stopped (the folder's lock says so otherwise). The database found there is kept beside
 * it (`pglite.before-restore-<time>`).
 */
import { join, resolve } from 'node:path';
import { loadConfig } from '../config';
import { restoreBackup } from './backup';

const [source] = process.argv.slice(2);
if (!source) {
  console.error('Usage : npm run restore -- <fichier.tar.gz>   (serveur arrêté)');
  process.exit(2);
}
const config = loadConfig();
if (config.DATABASE_URL || !config.pgliteDir) {
  console.error('DATABASE_URL est défini : restaurez PostgreSQL avec pg_restore (docs/operations.md, « Sauvegardes »).');
  process.exit(2);
}

try {
  const { counts, previous, exportFiles } = await restoreBackup(resolve(source), {
    pgliteDir: config.pgliteDir,
    exportsDir: config.S3_URL ? undefined : join(config.dataDir, 'exports'),
  });
  const leads = Object.entries(counts.leads).map(([status, n]) => `${status} ${n.toLocaleString('fr-FR')}`);
  console.log(
    [
      `Base restaurée dans ${config.pgliteDir}`,
      previous ? `L'ancienne base est gardée dans ${previous}` : undefined,
      `Leads : ${leads.join(', ') || 'aucun'}`,
      `Exports : ${counts.exports}, clients : ${counts.customers}, fichiers d'export ajoutés : ${exportFiles}`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
} catch (err) {
  console.error(`Restauration impossible : ${(err as Error).message}`);
  process.exit(1);
}
