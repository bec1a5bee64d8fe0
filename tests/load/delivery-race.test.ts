import { afterAll, beforeAll, describe, it } from 'vitest';
import { raceWindows } from '../api/delivery-race';
import { freshPostgresDatabase, startServer, type TestServer } from '../api/harness';
import { throwawayPostgres, type ThrowawayPostgres } from '../support/postgres';

// Issue 25's race at full size: 500 simultaneous intakes through two instances on one PostgreSQL
// (TEST_DATABASE_URL, or a throwaway one) against binding hour, day, week and month caps,
// max_buyers and dedupe (tests/api/delivery-race.ts). The api suite runs it with 150.
describe('two instances racing for capped, shared rules', () => {
  let pg: ThrowawayPostgres | undefined;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    if (!process.env.TEST_DATABASE_URL) pg = await throwawayPostgres();
    const shared = { DATABASE_URL: await freshPostgresDatabase(process.env.TEST_DATABASE_URL ?? pg!.url) };
    a = await startServer(shared);
    b = await startServer(shared);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    pg?.remove();
  });

  it('pass no window, sell no person twice to a customer, no lead beyond max_buyers, lose nothing (500 intakes)', async () => {
    await raceWindows(a, b, 500);
  });
});
