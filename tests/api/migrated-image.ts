/**
 * The API suite's global setup: one database as a first start of the server leaves it
 * (`firstStart`: migrated, pg-boss's schema and queues made), from which each server a test file
 * starts (`startServer`) begins instead of making all that again. On PGlite, a data folder dumped
 * to a file; on PostgreSQL (TEST_DATABASE_URL), a database each new one copies as its template
 * (CREATE DATABASE … TEMPLATE, a file copy). The tests that make their own new database
 * (`freshPostgresDatabase` with no template: two instances migrating it at once) still start on
 * an empty one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { firstStart } from '../support/first-start';
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
  const folder = mkdtempSync(join(tmpdir(), 'lead-console-api-image-'));
  const postgres = process.env.TEST_DATABASE_URL;
  if (postgres) {
    const run = randomBytes(4).toString('hex');
    const url = await freshPostgresDatabase(postgres, { run });
    await firstStart(folder, url);
    project.provide('apiPgliteImage', '');
    project.provide('apiPostgresTemplate', new URL(url).pathname.slice(1));
    project.provide('apiPostgresRun', run);
    return async () => {
      await dropRunDatabases(postgres, run);
      rmSync(folder, { recursive: true, force: true });
    };
  }
  project.provide('apiPostgresTemplate', '');
  project.provide('apiPostgresRun', '');
  await firstStart(folder);
  const pglite = await PGlite.create(join(folder, 'pglite'));
  const image = await pglite.dumpDataDir('none');
  await pglite.close();
  const file = join(folder, 'migrated.tar');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  project.provide('apiPgliteImage', file);
  return () => rmSync(folder, { recursive: true, force: true });
}
