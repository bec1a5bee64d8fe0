import { describe, expect, it } from 'vitest';
import { readAhead, type NextBatch, type ReadBatch } from '../../../../../server/services/exports/read-ahead';

// read-ahead.ts orders an export's batches: read up to `readers` at once, written one by one in
// id order. Here the batches are ranges of ids of a list, read after a delay that differs from one
// batch to the next, so that later batches are often read first.

/** Leads 1..n in batches of `size`; `known` says whether a batch's last id is known before it is read. */
function source(n: number, size: number, known: boolean, opts: { removed?: Set<number>; failAt?: number } = {}) {
  const log: string[] = [];
  let reading = 0;
  let most = 0;
  const next = (after: number): NextBatch => {
    if (after >= n) return known ? null : { from: `${after + 1}` };
    const last = Math.min(after + size, n);
    return { from: `${after + 1}`, ...(known ? { last } : {}) };
  };
  const read = async (from: string): Promise<ReadBatch> => {
    const first = Number(from);
    reading++;
    most = Math.max(most, reading);
    await new Promise((ok) => setTimeout(ok, ((first * 7) % 5) + 1));
    reading--;
    if (first === opts.failAt) throw new Error(`batch ${first} failed`);
    const ids: number[] = [];
    for (let id = first; id <= Math.min(first + size - 1, n); id++) if (!opts.removed?.has(id)) ids.push(id);
    if (ids.length === 0) return null;
    return {
      count: ids.length,
      last: ids[ids.length - 1]!,
      write: async () => {
        log.push(ids.join(','));
        await new Promise((ok) => setTimeout(ok, 2));
      },
    };
  };
  return { next, read, log, most: () => most };
}

describe('readAhead', () => {
  it('writes every batch once, in order, with up to `readers` read at once when the bounds are known', async () => {
    for (const readers of [1, 2, 3]) {
      const s = source(23, 5, true);
      const progress: number[] = [];
      await readAhead(s.next, s.read, readers, async (written) => void progress.push(written));
      expect(s.log).toEqual(['1,2,3,4,5', '6,7,8,9,10', '11,12,13,14,15', '16,17,18,19,20', '21,22,23']);
      expect(progress).toEqual([5, 10, 15, 20, 23]);
      expect(s.most()).toBe(readers);
    }
  });

  it('reads one batch at a time when each starts after the last one read', async () => {
    const s = source(12, 5, false);
    await readAhead(s.next, s.read, 3);
    expect(s.log).toEqual(['1,2,3,4,5', '6,7,8,9,10', '11,12']);
    expect(s.most()).toBe(1);
  });

  it('skips a batch whose leads were all removed when the bounds are known, and ends at an empty one otherwise', async () => {
    const removed = new Set([6, 7, 8, 9, 10]);
    const known = source(15, 5, true, { removed });
    await readAhead(known.next, known.read, 2);
    expect(known.log).toEqual(['1,2,3,4,5', '11,12,13,14,15']);
    const unknown = source(15, 5, false, { removed });
    await readAhead(unknown.next, unknown.read, 2);
    expect(unknown.log).toEqual(['1,2,3,4,5']);
  });

  it('throws the first failure in its turn, after writing the batches before it, and never as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const hear = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', hear);
    try {
      const s = source(30, 5, true, { failAt: 11 });
      await expect(readAhead(s.next, s.read, 3)).rejects.toThrow('batch 11 failed');
      expect(s.log).toEqual(['1,2,3,4,5', '6,7,8,9,10']);
      await new Promise((ok) => setTimeout(ok, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', hear);
    }
  });
});
