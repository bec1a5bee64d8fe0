import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobs, defineQueue } from '../../server/services/jobs';
import { startServer, type TestServer } from './harness';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const QUEUE = defineQueue<{ n: number }>('test.workers');

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
    const deadline = Date.now() + 20_000;
    while (handled.length < 4 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
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
});
