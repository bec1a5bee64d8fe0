/**
 * The API suite's global setup: migrates one database, from which each server a test file starts
 * (`startServer`) begins instead of migrating its own again. On PGlite, an in-memory one whose
 * data folder is dumped to a file (about 2 s of a core less per server); on PostgreSQL
 * (TEST_DATABASE_URL), a database each new one copies as its template (CREATE DATABASE …
 * TEMPLATE, a file copy: 0.2 s against 3–7 s of migrations on a loaded two-core machine). The
 * tests that make their own new database (`freshPostgresDatabase` with no template: two
 * instances migrating it at once) still migrate an empty one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { dropRunDatabases, freshPostgresDatabase } from '../support/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** File of the migrated data folder's dump (tar), or '' on PostgreSQL. */
    apiPgliteImage: string;
    /** Name of the migrated database on TEST_DATABASE_URL's server, or '' on PGlite. */
    apiPostgresTemplate: string;
    /** This run's mark in the names of the databases its tests make on PostgreSQL, dropped when it ends ('' on PGlite). */
    apiPostgresRun: string;
  }
}

export default async function setup(project: TestProject) {
  const postgres = process.env.TEST_DATABASE_URL;
  if (postgres) {
    const run = randomBytes(4).toString('hex');
    const url = await freshPostgresDatabase(postgres, { run });
    const db = await openPostgres(url);
    await migrate(db);
    await db.close();
    project.provide('apiPgliteImage', '');
    project.provide('apiPostgresTemplate', new URL(url).pathname.slice(1));
    project.provide('apiPostgresRun', run);
    return () => dropRunDatabases(postgres, run);
  }
  project.provide('apiPostgresTemplate', '');
  project.provide('apiPostgresRun', '');
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
