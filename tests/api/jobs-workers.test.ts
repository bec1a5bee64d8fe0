import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobs, defineQueue } from '../../server/services/jobs';
import { until } from '../support/until';
import { startServer, type TestServer } from './harness';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const QUEUE = defineQueue<{ n: number }>('test.workers');
const EACH_QUEUE = defineQueue<{ n: number }>('test.workers.each', { retryLimit: 2, retryDelay: 1 });
const LATE_QUEUE = defineQueue<{ n: number }>('test.workers.late', { retryLimit: 1, retryDelay: 1 });
const ONE_QUEUE = defineQueue<{ n: number }>('test.workers.one', {}, { oneAtATime: true });

describe('job workers', () => {
  it('runs a queue’s workers side by side on PostgreSQL (one on PGlite), each job once, and stops only when every handler under way is done', async () => {
    const db = server.ctx.db;
    const errors: unknown[] = [];
    const record = (...args: unknown[]) => void errors.push(args);
    const jobs = createJobs(db, { error: record, warn: record });
    let running = 0;
    let mostAtOnce = 0;
    const handled: number[] = [];
    jobs.register(
      QUEUE,
      async ({ n }) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await new Promise((resolve) => setTimeout(resolve, 300));
        // A handler still running after stop() would meet a closed database here.
        await db.query('SELECT pg_sleep(0.05)');
        handled.push(n);
        running--;
      },
      { workers: 4, pollingIntervalSeconds: 0.5 },
    );
    await jobs.start();
    for (let n = 0; n < 8; n++) await jobs.send(QUEUE, { n });
    await until(() => handled.length >= 4, 20_000, 'four jobs handled');
    await jobs.stop();

    expect(running).toBe(0);
    expect(errors).toEqual([]);
    expect(new Set(handled).size).toBe(handled.length);
    expect(mostAtOnce).toBe(db.parallel ? 4 : 1);
    const { rows } = await db.query<{ state: string; n: number }>(`SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY state`, [
      QUEUE.name,
    ]);
    // Every job handled is completed (pg-boss sends the completion after the handler: awaited by stop too).
    expect(rows.find((r) => r.state === 'completed')?.n ?? 0).toBe(handled.length);
  });

  it('settles each job of a batch on its own: one failing is retried alone, the others complete once', async () => {
    const db = server.ctx.db;
    const jobs = createJobs(db, { error: () => undefined, warn: () => undefined });
    const runs: number[] = [];
    const batches: number[] = [];
    jobs.registerEach(
      EACH_QUEUE,
      async (batch) => {
        batches.push(batch.length);
        return Promise.allSettled(
          batch.map(async ({ n }) => {
            runs.push(n);
            if (n === 2 && runs.filter((r) => r === 2).length === 1) throw new Error('refusé une fois');
          }),
        );
      },
      { batchSize: 10 },
    );
    await jobs.start();
    // Queued in one transaction: the worker's next fetch takes them all as one batch.
    await db.tx(async (q) =>
      jobs.sendManyIn(
        q,
        EACH_QUEUE,
        [0, 1, 2, 3].map((n) => ({ data: { n } })),
      ),
    );
    jobs.wake(EACH_QUEUE);
    await until(() => runs.length === 5, 15_000, 'five runs');
    await jobs.stop();

    expect(batches[0]).toBe(4);
    expect(runs.sort()).toEqual([0, 1, 2, 2, 3]);
    const { rows } = await db.query<{ n: number; state: string; retry_count: number }>(
      `SELECT (data->>'n')::int AS n, state::text, retry_count FROM pgboss.job WHERE name = $1 ORDER BY n`,
      [EACH_QUEUE.name],
    );
    expect(rows).toEqual([0, 1, 2, 3].map((n) => ({ n, state: 'completed', retry_count: n === 2 ? 1 : 0 })));
  });

  it('runs a job queued without a wake and a retry after its delay within seconds, whatever the poll', async () => {
    const db = server.ctx.db;
    const jobs = createJobs(db, { error: () => undefined, warn: () => undefined });
    const runs: number[] = [];
    jobs.register(LATE_QUEUE, async ({ n }) => {
      runs.push(n);
      if (runs.length === 1) throw new Error('réessayé');
    });
    await jobs.start();
    // Queued in a transaction of another part of the code that wakes nobody, as pg-boss queues a schedule's run.
    const started = Date.now();
    await db.tx(async (q) => void (await jobs.sendIn(q, LATE_QUEUE, { n: 1 })));
    await until(() => runs.length === 2, 15_000, 'two runs');
    await jobs.stop();
    expect(runs).toEqual([1, 1]);
    // The first run within about a second, its retry a second after the failure, and the checks' own second each.
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('runs the jobs of a one-at-a-time queue one after the other, whichever of two instances fetches them, even a queue created before it was one', async () => {
    const db = server.ctx.db;
    const errors: unknown[] = [];
    const record = (...args: unknown[]) => void errors.push(args);
    // The queue as a version that did not declare it one at a time created it.
    const older = createJobs(db, { error: record, warn: record });
    older.register(defineQueue(ONE_QUEUE.name), async () => undefined);
    await older.start();
    await older.stop();

    const instances = [createJobs(db, { error: record, warn: record }), createJobs(db, { error: record, warn: record })];
    let running = 0;
    let mostAtOnce = 0;
    const handled: number[] = [];
    for (const jobs of instances) {
      jobs.register(
        ONE_QUEUE,
        async ({ n }) => {
          running++;
          mostAtOnce = Math.max(mostAtOnce, running);
          await db.query('SELECT pg_sleep(0.2)');
          handled.push(n);
          running--;
        },
        { workers: 2, pollingIntervalSeconds: 0.5 },
      );
    }
    await Promise.all(instances.map((jobs) => jobs.start()));
    const { rows } = await db.query<{ policy: string }>('SELECT policy FROM pgboss.queue WHERE name = $1', [ONE_QUEUE.name]);
    expect(rows).toEqual([{ policy: 'singleton' }]);
    for (let n = 0; n < 6; n++) await instances[n % 2]!.send(ONE_QUEUE, { n });
    await until(() => handled.length === 6, 30_000, 'six jobs handled');
    await Promise.all(instances.map((jobs) => jobs.stop()));

    expect([...handled].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(mostAtOnce).toBe(1);
    expect(errors).toEqual([]);
  });
});
