import { describe, expect, it } from 'vitest';
import { RowCache } from '../../../../src/grid/rowCache';
import type { PageRequest, RowLoader } from '../../../../src/grid/types';

/** A loader that estimates 1,000 rows and knows, when asked, that there are 987. */
function estimating() {
  const counts: number[] = [];
  const pending: ((n: number) => void)[] = [];
  const loader: RowLoader = async (req: PageRequest) => ({
    rows: Array.from({ length: req.limit }, (_, i) => ({ id: req.offset + i + 1 })),
    total: 1000,
    exactTotal: () => {
      counts.push(req.offset);
      return new Promise<number>((resolve) => pending.push(resolve));
    },
  });
  return { loader, counts, settle: (n: number, which = pending.length - 1) => pending[which](n) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the row cache with an estimated total', () => {
  it('shows the estimate, asks for the exact count once, and keeps it for the later pages', async () => {
    const src = estimating();
    let changes = 0;
    const cache = new RowCache(src.loader, 150, { sort: null, filters: {} }, () => changes++);
    await cache.ensure(0, 0);
    expect([cache.total, cache.totalExact]).toEqual([1000, false]);
    await cache.ensure(150, 450);
    expect(src.counts).toEqual([0]);
    src.settle(987);
    await tick();
    expect([cache.total, cache.totalExact]).toEqual([987, true]);
    await cache.ensure(600, 700);
    expect([cache.total, src.counts.length]).toEqual([987, 1]);
    expect(changes).toBeGreaterThan(3);
  });

  it('drops an exact count that arrives after the query changed, and counts again for the new one', async () => {
    const src = estimating();
    const cache = new RowCache(src.loader, 150, { sort: null, filters: {} }, () => undefined);
    await cache.ensure(0, 0);
    cache.reset({ sort: null, filters: { nom: 'mar' } });
    await cache.ensure(0, 0);
    src.settle(5, 0);
    await tick();
    expect([cache.total, cache.totalExact]).toEqual([1000, false]);
    expect(src.counts).toEqual([0, 0]);
  });
});

describe('the row cache after a failed page', () => {
  it('does not ask again for a page that failed until the list is refreshed or its query changes', async () => {
    let calls = 0;
    const loader: RowLoader = async () => {
      calls++;
      throw Object.assign(new Error('not found'), { status: 404 });
    };
    let changes = 0;
    const cache = new RowCache(loader, 150, { sort: null, filters: {} }, () => changes++);
    // The grid calls ensure on every render, and a failure renders: that loop must end.
    for (let i = 0; i < 20; i++) await cache.ensure(0, 149);
    expect(calls).toBe(1);
    expect(changes).toBe(1);
    expect(cache.error).toBeInstanceOf(Error);
    await cache.refresh();
    expect(calls).toBe(2);
    cache.reset({ sort: null, filters: { nom: 'a' } });
    await cache.ensure(0, 0);
    await cache.ensure(0, 0);
    expect(calls).toBe(3);
  });
});

describe('rows taken out of the list without asking the server', () => {
  it('moves the later rows up, keeps full pages, shows a page with holes while reading it again', async () => {
    let asked = 0;
    const loader: RowLoader = async (req) => {
      asked++;
      return { rows: Array.from({ length: Math.min(req.limit, 7 - req.offset) }, (_, i) => ({ id: req.offset + i + 1 })), total: 7 };
    };
    const cache = new RowCache(loader, 3, { sort: null, filters: {} }, () => undefined);
    await cache.ensure(0, 6);
    expect(asked).toBe(3);
    expect(cache.remove(new Set([2, 42]))).toEqual([1]);
    expect(cache.total).toBe(6);
    expect(Array.from({ length: 6 }, (_, i) => cache.idAt(i))).toEqual([1, 3, 4, 5, 6, 7]);
    // Every page is full again: nothing to read.
    await cache.ensure(0, 5);
    expect(asked).toBe(3);
    expect(cache.remove(new Set([99]))).toEqual([]);
  });

  it('a page left short of the rows it should hold is read again, its rows shown meanwhile', async () => {
    let asked = 0;
    const loader: RowLoader = async (req) => {
      asked++;
      return { rows: Array.from({ length: req.limit }, (_, i) => ({ id: req.offset + i + 1 })), total: 100 };
    };
    const cache = new RowCache(loader, 3, { sort: null, filters: {} }, () => undefined);
    await cache.ensure(0, 5);
    expect(cache.remove(new Set([1]))).toEqual([0]);
    expect([cache.idAt(0), cache.idAt(4), cache.idAt(5)]).toEqual([2, 6, undefined]);
    await cache.ensure(3, 5);
    expect(asked).toBe(3);
  });
});
