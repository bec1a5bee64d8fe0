// The query client's retry policy: a 4xx will not get better by asking again (a stale bookmark
// once asked 140 times a second); a network failure or a 5xx gets one more try.
import { expect, it } from 'vitest';
import { ApiError } from '../../../../src/api/client';
import { queryClient } from '../../../../src/api/queryClient';

const policy = queryClient.getDefaultOptions().queries!.retry as (count: number, error: Error) => boolean;

/** How many times a query failing with `error` asks, under the client's policy (as useQuery applies it). */
async function attempts(error: Error) {
  let calls = 0;
  await queryClient
    .fetchQuery({
      queryKey: ['retry', error.message, Math.random()],
      queryFn: () => {
        calls++;
        throw error;
      },
      retry: policy,
      retryDelay: 0,
    })
    .catch(() => undefined);
  return calls;
}

it('never retries a 4xx, retries a 5xx or a network failure once', async () => {
  for (const status of [400, 401, 403, 404, 409, 422, 429]) expect(policy(0, new ApiError(status, 'x', 'x'))).toBe(false);
  expect(policy(0, new ApiError(500, 'internal_error', 'x'))).toBe(true);
  expect(policy(0, new ApiError(0, 'network_error', 'x'))).toBe(true);
  expect(policy(1, new ApiError(500, 'internal_error', 'x'))).toBe(false);
  expect(await attempts(new ApiError(404, 'not_found', 'Landing introuvable'))).toBe(1);
  expect(await attempts(new ApiError(503, 'http_503', 'x'))).toBe(2);
});
