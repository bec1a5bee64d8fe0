/**
 * The API suite's global setup: migrates one in-memory PGlite and dumps its data folder to a
 * file, from which each test file's in-memory database starts (`startServer`) instead of
 * creating a cluster and migrating it again (about 2 s of a core per server). On PostgreSQL
 * (TEST_DATABASE_URL) each file still migrates its own new database.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** File of the migrated data folder's dump (tar), or '' on PostgreSQL. */
    apiPgliteImage: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('apiPgliteImage', '');
    return;
  }
  const folder = mkdtempSync(join(tmpdir(), 'lead-console-api-image-'));
  const db = await openPglite(join(folder, 'pglite'));
  await migrate(db);
  await db.close();
  const pglite = await PGlite.create(join(folder, 'pglite'));
  const image = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = join(folder, 'migrated.tar');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  project.provide('apiPgliteImage', file);
  return () => rmSync(folder, { recursive: true, force: true });
}
