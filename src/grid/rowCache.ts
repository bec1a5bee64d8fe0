// Rows loaded page by page through the loader. A new query (sort, filters, refresh) starts a
// new generation: answers to older requests are dropped and their requests aborted.
import type { GridColumnSpec, GridQuery as Query, PageResult, Row, RowId, RowLoader } from './types';

export class RowCache {
  private pages = new Map<number, Row[]>();
  private pending = new Map<number, AbortController>();
  private generation = 0;
  total = 0;
  /** The generation whose `total` is exact, and the one whose exact count is under way. */
  private exactIn = -1;
  private counting = -1;
  columns: GridColumnSpec[] | undefined;
  /** False until the first page of the current query has answered. */
  ready = false;
  error: unknown = null;
  /** Pages whose request failed in this generation: asked again only by a refresh or a new query
   * (the grid calls `ensure` on every render, and a failure renders). */
  private failed = new Set<number>();

  constructor(
    private loader: RowLoader,
    readonly pageSize: number,
    private query: Query,
    private onChange: () => void,
  ) {}

  setLoader(loader: RowLoader) {
    this.loader = loader;
  }

  /** Starts over with a new query, or the same one when `query` is omitted (a refresh). */
  reset(query: Query = this.query, keepRows = false) {
    this.generation++;
    for (const c of this.pending.values()) c.abort();
    this.pending.clear();
    this.query = query;
    if (!keepRows) {
      this.pages.clear();
      this.ready = false;
    }
    this.error = null;
    this.failed.clear();
  }

  get totalExact(): boolean {
    return this.exactIn === this.generation;
  }

  rowAt(index: number): Row | undefined {
    return this.pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize];
  }

  idAt = (index: number): RowId | undefined => this.rowAt(index)?.id;

  loadedIds(): RowId[] {
    const ids: RowId[] = [];
    for (const page of this.pages.values()) for (const r of page) ids.push(r.id);
    return ids;
  }

  /** Loads every missing page of rows start…end (inclusive); resolves when they are in. */
  ensure(start: number, end: number): Promise<void> {
    const first = Math.floor(Math.max(0, start) / this.pageSize);
    const last = Math.floor(Math.max(0, this.ready ? Math.min(end, this.total - 1) : end) / this.pageSize);
    const waits: Promise<void>[] = [];
    for (let p = first; p <= last; p++) {
      if ((this.pages.has(p) && !this.stale.has(p)) || this.failed.has(p)) continue;
      if (!this.pending.has(p)) waits.push(this.load(p));
    }
    return Promise.all(waits).then(() => undefined);
  }

  /** Pages kept on screen during a refresh until their new version arrives. */
  private stale = new Set<number>();

  /** Reloads the pages already seen without blanking them: the focus keeps its place meanwhile. */
  refresh(): Promise<void> {
    const seen = [...this.pages.keys()];
    this.reset(this.query, true);
    this.stale = new Set(seen);
    if (seen.length === 0) return this.ensure(0, 0);
    return Promise.all(seen.map((p) => this.load(p))).then(() => {
      // Pages beyond the new end of the list are gone.
      for (const p of this.pages.keys()) if (p * this.pageSize >= this.total && p > 0) this.pages.delete(p);
      this.onChange();
    });
  }

  /**
   * Takes rows out of the list as someone else's change moved them elsewhere, without asking the
   * server: the rows after them move up. A page left with holes stays shown and is read again
   * (as during a refresh). Answers the indexes the rows had, in order.
   */
  remove(ids: ReadonlySet<RowId>): number[] {
    const loaded = [...this.pages.entries()].sort((a, b) => a[0] - b[0]);
    const removed: number[] = [];
    for (const [p, rows] of loaded) rows.forEach((r, i) => ids.has(r.id) && removed.push(p * this.pageSize + i));
    if (removed.length === 0) return removed;
    this.total = Math.max(0, this.total - removed.length);
    const pages = new Map<number, Row[]>();
    let before = 0;
    for (const [p, rows] of loaded) {
      rows.forEach((row, i) => {
        const index = p * this.pageSize + i;
        while (before < removed.length && removed[before] < index) before++;
        if (ids.has(row.id)) return;
        const at = index - before;
        const page = Math.floor(at / this.pageSize);
        if (!pages.has(page)) pages.set(page, []);
        pages.get(page)![at % this.pageSize] = row;
      });
    }
    this.pages = pages;
    this.stale.clear();
    for (const [p, rows] of pages) {
      const size = Math.min(this.pageSize, this.total - p * this.pageSize);
      let filled = 0;
      for (let i = 0; i < size; i++) if (rows[i] !== undefined) filled++;
      if (filled < size) this.stale.add(p);
    }
    return removed;
  }

  private async load(page: number): Promise<void> {
    const generation = this.generation;
    const ctrl = new AbortController();
    this.pending.set(page, ctrl);
    let result: PageResult;
    try {
      result = await this.loader({ offset: page * this.pageSize, limit: this.pageSize, ...this.query }, ctrl.signal);
    } catch (err) {
      if (generation !== this.generation) return;
      this.pending.delete(page);
      this.failed.add(page);
      this.error = err;
      this.onChange();
      return;
    }
    if (generation !== this.generation) return;
    this.pending.delete(page);
    this.stale.delete(page);
    this.pages.set(page, result.rows);
    this.takeTotal(result, generation);
    if (result.columns) this.columns = result.columns;
    this.ready = true;
    this.onChange();
  }

  /** An exact total is kept for the generation; an estimate stands until the exact count, asked once, replaces it. */
  private takeTotal(result: PageResult, generation: number) {
    if (!result.exactTotal) {
      this.total = result.total;
      this.exactIn = generation;
      return;
    }
    if (this.exactIn === generation) return;
    this.total = result.total;
    if (this.counting === generation) return;
    this.counting = generation;
    result.exactTotal().then(
      (total) => {
        if (generation !== this.generation) return;
        this.total = total;
        this.exactIn = generation;
        this.onChange();
      },
      () => undefined, // the estimate stays
    );
  }
}
