import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consume, type RateLimit } from '../../server/services/rate-limit';
import { startServer, type TestServer } from './harness';
import { createLanding } from './leads-support';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const accepted = async (limit: RateLimit, key: string, times: number) => {
  let n = 0;
  for (let i = 0; i < times; i++)
    n += await consume(server.ctx.db, limit, key).then(
      () => 1,
      () => 0,
    );
  return n;
};

describe('request limits count over a sliding window (issue 24, item 6)', () => {
  it('never allow more than max in any window, across the end of a clock-aligned one', async () => {
    // A 4 s window: however slow a loaded machine makes each request, the second five still fall
    // within 4 s of the first five.
    const limit: RateLimit = { bucket: 'test-sliding', max: 5, windowSeconds: 4, message: 'Trop de requêtes' };
    // Five 1.5 s before a multiple of four seconds, where a fixed window would end and a fresh one begin, five just after.
    const now = Date.now();
    const boundary = now - (now % 4000) + 8000;
    await new Promise((resolve) => setTimeout(resolve, boundary - 1500 - Date.now()));
    const before = await accepted(limit, 'a', 5);
    const firstDone = Date.now();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, boundary + 100 - Date.now())));
    const after = await accepted(limit, 'a', 5);
    expect([before, after]).toEqual([5, 0]);
    // Once the first five are four seconds old, five more pass (the refused ones did not count).
    await new Promise((resolve) => setTimeout(resolve, firstDone + 4100 - Date.now()));
    expect(await accepted(limit, 'a', 6)).toBe(5);
    expect(await accepted(limit, 'b', 6)).toBe(5);
  });

  it('answers 429 beyond 60 intake posts from one address in a minute, with the seconds until one passes again', async () => {
    const landing = await createLanding(server.ctx.db);
    const statuses: number[] = [];
    let retryAfter = 0;
    for (let i = 0; i < 90; i++) {
      const res = await fetch(`${server.url}/api/intake/${landing.key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' },
        body: '{"nom":"x"}',
      });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = Number(res.headers.get('retry-after'));
    }
    expect(statuses.filter((s) => s !== 429).length).toBe(60);
    expect(retryAfter).toBeGreaterThanOrEqual(55);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});
