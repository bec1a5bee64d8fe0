/**
 * `npm run retention -- archive` | `restore <AAAA-MM>` | `list`: the retention job, a month's
 * restore and the archive's listing, run by hand with the server's configuration (DATA_DIR or
 * DATABASE_URL, RETENTION_MONTHS, the export storage). On PGlite the server holds the database:
 * stop it first, or call the API (docs/operations.md, 'Retention').
 */
import { archiveMonth as monthFormat } from '../../src/api/archives/contract';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { AppError } from '../errors';
import { archiveOldLeads } from '../services/retention/archive';
import { listArchives } from '../services/retention/list';
import { restoreMonth } from '../services/retention/restore';
import { openDb } from './connection';
import { migrate } from './migrate';

const [command, month] = process.argv.slice(2);
const usage = 'Usage : npm run retention -- archive | restore <AAAA-MM> | list';
if (!['archive', 'restore', 'list'].includes(command ?? '') || (command === 'restore' && !monthFormat.safeParse(month).success)) {
  console.error(usage);
  process.exit(2);
}

const config = loadConfig();
const log = createLogger('warn');
try {
  const db = await openDb({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
  const ctx = { db, config, log };
  try {
    await migrate(db);
    const started = Date.now();
    const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
    if (command === 'archive') {
      const { months, leads } = await archiveOldLeads(ctx, null);
      console.log(leads ? `${leads} leads archivés (${months.join(', ')}) en ${seconds()} s` : 'Aucun lead à archiver');
    } else if (command === 'restore') {
      console.log(`${await restoreMonth(ctx, month!, null)} leads de ${month} restaurés en ${seconds()} s`);
    } else {
      const { data, retention_months } = await listArchives(ctx);
      console.log(retention_months ? `Conservation : ${retention_months} mois` : 'Conservation limitée désactivée (RETENTION_MONTHS)');
      for (const f of data)
        console.log(`${f.month}  ${f.state.padEnd(9)} ${String(f.leads).padStart(9)} leads  ${(f.bytes / 1024 / 1024).toFixed(1)} Mo  ${f.landing_name}`);
    }
  } finally {
    await db.close();
  }
} catch (err) {
  console.error(err instanceof AppError ? err.message : `Rétention impossible : ${(err as Error).message}`);
  process.exit(1);
}
