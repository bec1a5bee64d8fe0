/** A batch to read: where from and, when known before it is read, the id of its last lead; null when there are no more. */
export type NextBatch = { from: string; last?: number } | null;

/** A batch read: how many leads, the last one's id, and how to write them; null when it held none. */
export type ReadBatch = { count: number; last: number; write: () => Promise<void> } | null;

/**
 * Reads batches in id order and writes each in that order, with up to `readers` of the next
 * batches read meanwhile. `next(after)` names the batch after lead id `after`; a batch whose last
 * lead is known only once read holds the next one back until it is. An empty batch ends the
 * reading then, and is skipped otherwise (its leads were removed since they were listed).
 * `onWritten` hears the leads written so far after each batch. The first failure is thrown once
 * its batch's turn comes; the batches read meanwhile are dropped.
 */
export async function readAhead(
  next: (after: number) => NextBatch,
  read: (from: string) => Promise<ReadBatch>,
  readers: number,
  onWritten?: (written: number) => Promise<void>,
): Promise<void> {
  const reads: Array<Promise<ReadBatch>> = [];
  let after = 0;
  let waiting = false;
  let done = false;
  const ask = () => {
    while (!done && !waiting && reads.length < readers) {
      const batch = next(after);
      if (!batch) {
        done = true;
        break;
      }
      const reading = read(batch.from);
      // A failure is thrown where its batch is awaited, not as an unhandled rejection before.
      reading.catch(() => undefined);
      reads.push(reading);
      if (batch.last === undefined) waiting = true;
      else after = batch.last;
    }
  };
  let written = 0;
  ask();
  while (reads.length > 0) {
    const batch = await reads.shift()!;
    if (waiting && reads.length === 0) {
      // The batch the next one waited for: the next starts after it, or there is none.
      if (!batch) break;
      after = batch.last;
      waiting = false;
    }
    ask();
    if (!batch) continue;
    await batch.write();
    written += batch.count;
    await onWritten?.(written);
  }
}
