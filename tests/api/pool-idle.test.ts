import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/connection';

// The servers' PostgreSQL pool (server/db/connection.ts) keeps a connection through a user's pause:
// a new one is a new PostgreSQL process, whose first statements map the shared buffers page by page
// (docs/performance.md). node-postgres' own default closed it after 10 s unused.

const postgres = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgres)('PostgreSQL pool', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openDb({ databaseUrl: postgres });
  });
  afterAll(() => db?.close());

  const backend = async () => (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

  it('answers after a pause of 11 s on the connection it used before', async () => {
    const before = await backend();
    await pause(11_000);
    expect(await backend()).toBe(before);
  });
});
