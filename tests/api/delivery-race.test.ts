import { afterAll, beforeAll, describe, it } from 'vitest';
import { freshPostgresDatabase, startServer, type TestServer } from './harness';
import { raceBudgets, raceWindows } from './delivery-race';

// Two instances on one PostgreSQL (CI's second api run; PGlite is one process's database):
// simultaneous intakes against binding hour, day, week and month caps, max_buyers and dedupe, and
// against binding monthly budgets.
// The 500-intake run is in the load suite (tests/load/delivery-race.test.ts).
const postgres = process.env.TEST_DATABASE_URL;

describe.skipIf(!postgres)('two instances racing for capped, shared rules', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const shared = { DATABASE_URL: await freshPostgresDatabase(postgres!) };
    a = await startServer(shared);
    b = await startServer(shared);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('pass no window, sell no person twice to a customer, no lead beyond max_buyers, lose nothing (150 intakes)', async () => {
    await raceWindows(a, b, 150);
  }, 400_000);

  it('pass no customer’s monthly budget by one cent (300 intakes)', async () => {
    await raceBudgets(a, b, 300);
  }, 400_000);
});
