/** The first retry's ceiling, and the longest wait between two tries however long the outage. */
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 30_000;

/**
 * How long to wait before try `attempt` (0 for the first retry): an exponential ceiling, capped,
 * drawn at random between half of it and all of it so that the tabs a restart cut off do not all
 * come back in the same instant.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
