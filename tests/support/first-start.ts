import { boot } from '../../server/boot';
import { loadConfig } from '../../server/config';
import { openDb } from '../../server/db/connection';
import { TEST_ENV } from './test-env';

/**
 * A start and stop of the server on a database (DATA_DIR's PGlite folder, or `databaseUrl`), its
 * jobs then removed: the database as a server that ran once and finished its work leaves it, with
 * pg-boss's schema and queues made. The suites' global setups do it once, so that each server a
 * test starts on a copy does not make them again (docs/performance.md).
 */
export async function firstStart(dataDir: string, databaseUrl?: string): Promise<void> {
  const config = loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', LOG_LEVEL: 'silent' }, { seedDemo: false });
  await (await boot(config, { logger: false })).close();
  const db = await openDb({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
  try {
    await db.exec('DELETE FROM pgboss.job; DELETE FROM pgboss.archive');
  } finally {
    await db.close();
  }
}
