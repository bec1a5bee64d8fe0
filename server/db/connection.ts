import { mkdirSync, statSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { lockDataDir } from './pglite-lock';
import { DataFolderGone } from './unavailable';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** What services need from a connection: parameterised queries and multi-statement scripts. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Runs parameterless SQL that may hold several statements; answers the last one's rows. */
  exec<T = Record<string, unknown>>(sql: string): Promise<T[]>;
  /**
   * `COPY target FROM STDIN (FORMAT csv)` of `csv` (the text of every row): the database's own bulk
   * input, with its triggers and checks, in a quarter to a half of the time of an `INSERT … unnest`
   * of the same rows (docs/performance.md). Answers the number of rows copied.
   */
  copyFrom(target: string, csv: string): Promise<number>;
  /** Whether the database works in another process while this thread goes on (PostgreSQL), or on this thread (PGlite). */
  readonly parallel: boolean;
}

/** The connection of a transaction: its queries, and what to do once it has committed. */
export interface Tx extends Queryable {
  /**
   * Runs `fn` once the transaction has committed, never when it rolls back: work others must only
   * see then (offering the leads it made new to the delivery engine). `tx` resolves after the
   * hooks; a hook handles its own failures, since the commit stands whatever they do.
   */
  afterCommit(fn: () => Promise<void>): void;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'pg';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws; then its after-commit hooks. */
  tx<T>(fn: (q: Tx) => Promise<T>): Promise<T>;
  /**
   * PGlite persisted in a folder only: runs `fn` after a CHECKPOINT while no statement can run,
   * so the folder's files stay as they are and a copy of them is consistent (backups).
   */
  frozen?<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// int8 counts and ids come back as strings from node-postgres; our ids fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
// Dates stay 'YYYY-MM-DD' strings, as the API speaks them.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

/**
 * PGlite runs on this thread and settles its queries through microtasks only: a loop of queries
 * (a custom export gathering a year of ids) never let the event loop answer anyone, and held every
 * request for a second. A turn of the event loop after each query does.
 */
const turn = () => new Promise((resolve) => setImmediate(resolve));

function wrapPglite(db: PGlite | Parameters<Parameters<PGlite['transaction']>[0]>[0], check: () => void): Queryable {
  return {
    parallel: false,
    async query<T>(sql: string, params: unknown[] = []) {
      check();
      const res = await db.query<T>(sql, params);
      await turn();
      return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
    },
    async exec<T>(sql: string) {
      check();
      const results = await db.exec(sql);
      await turn();
      return (results.at(-1)?.rows ?? []) as T[];
    },
    // PGlite's COPY … FROM STDIN is its '/dev/blob' device, fed with the query's blob.
    async copyFrom(target: string, csv: string) {
      check();
      const res = await db.query(`COPY ${target} FROM '/dev/blob' (FORMAT csv)`, [], { blob: new Blob([csv]) });
      await turn();
      return res.affectedRows ?? 0;
    },
  };
}

/** A transaction run by `begin`, then its after-commit hooks in the order they were added. */
async function withAfterCommit<T>(begin: (afterCommit: Tx['afterCommit']) => Promise<T>): Promise<T> {
  const hooks: Array<() => Promise<void>> = [];
  const result = await begin((fn) => hooks.push(fn));
  for (const hook of hooks) await hook();
  return result;
}

const pgliteParsers = {
  20: (v: string) => Number(v), // int8
  1700: (v: string) => Number(v), // numeric
  1082: (v: string) => v, // date
};

/**
 * The embedded server's memory never shrinks (a WebAssembly heap), so it is sized here. Shared
 * buffers are allocated whole at start (the default 128 MB made the process 340 MB before any
 * work). Every page missing from them is a system call through the WebAssembly file system,
 * about 11 µs: a filtered lead page reads up to 15,000 leads of its landing, and with 64 MB half
 * of their pages were misses (p95 158 ms, 75 ms with 96 MB). work_mem keeps a 10,000-lead status
 * change's trigger tables (lead_month_stats, ~4 MB each) off temporary files; 16 MB let a
 * 100,000-lead sale hold 32 MB of them before spilling, which the heap then kept.
 * PGlite starts without fsync (`-F`), so a power cut can already leave pages half written: full
 * page images in the WAL would guard against nothing more, and were two thirds of the WAL of a
 * 100,000-lead sale (178 MB → 63 MB, the export ~10 % faster).
 */
export const pgliteSettings = ['shared_buffers=96MB', 'work_mem=8MB', 'full_page_writes=off'];

/**
 * A check before each statement that the data folder is still the one opened: removed (or
 * replaced) under a running server, PGlite failed every statement and its connection stayed in an
 * aborted transaction, or spun at full CPU on the missing files. Every statement then fails as
 * the database unavailable (503, /api/ready 503) without reaching PGlite. A stat costs microseconds.
 */
function folderCheck(dir: string | undefined): () => void {
  if (!dir) return () => undefined;
  const opened = statSync(dir).ino;
  let gone = false;
  return () => {
    gone ||= statSync(dir, { throwIfNoEntry: false })?.ino !== opened;
    if (gone) throw new DataFolderGone(dir);
  };
}

/**
 * PGlite persisted under `dir`, or in memory when `dir` is undefined; in memory, `image` (a
 * data folder dumped by `dumpDataDir`) is its starting content instead of an empty cluster.
 */
export async function openPglite(dir: string | undefined, image?: Blob): Promise<Db> {
  if (dir) mkdirSync(dir, { recursive: true });
  const unlock = dir ? lockDataDir(dir) : () => undefined;
  const db = await PGlite.create(dir, {
    loadDataDir: dir ? undefined : image,
    parsers: pgliteParsers,
    startParams: [...PGlite.defaultStartParams, ...pgliteSettings.flatMap((setting) => ['-c', setting])],
  }).catch((err: unknown) => {
    unlock();
    throw err;
  });
  const check = folderCheck(dir);
  const base = wrapPglite(db, check);
  return {
    kind: 'pglite',
    ...base,
    tx: (fn) => {
      check();
      return withAfterCommit((afterCommit) => db.transaction((t) => fn({ ...wrapPglite(t, check), afterCommit })));
    },
    // Between two statements every write has reached the folder (NODEFS writes through), so the
    // files form the image a crash of the process would leave: a copy opens like one, committed
    // transactions whole; the CHECKPOINT keeps the WAL to replay short.
    frozen: dir
      ? async (fn) => {
          await db.query('CHECKPOINT');
          return db.runExclusive(fn);
        }
      : undefined,
    // Closing writes a checkpoint into the folder: not into a folder that is gone.
    close: async () => {
      try {
        check();
      } catch {
        return unlock();
      }
      return db.close().finally(unlock);
    },
  };
}

/**
 * A `COPY … FROM STDIN` for node-postgres, which has no COPY stream of its own (that is the
 * `pg-copy-streams` package): its simple query, then, at the server's CopyInResponse, the csv as
 * CopyData messages and CopyDone. Errors and the row count come back as for any query.
 */
class CopyIn extends pg.Query {
  private readonly csv: string;
  constructor(sql: string, csv: string) {
    super(sql);
    this.csv = csv;
  }
  handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }) {
    const bytes = Buffer.from(this.csv);
    for (let at = 0; at < bytes.length; at += COPY_CHUNK) connection.sendCopyFromChunk(bytes.subarray(at, at + COPY_CHUNK));
    connection.endCopyFrom();
  }
}
/** CopyData messages of 1 MB: a message is limited to 1 GB, and an import's csv may pass it. */
const COPY_CHUNK = 2 ** 20;

function copyIn(c: pg.PoolClient, target: string, csv: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const query = new CopyIn(`COPY ${target} FROM STDIN (FORMAT csv)`, csv);
    query.on('end', (res) => resolve(res.rowCount ?? 0));
    query.on('error', reject);
    void c.query(query);
  });
}

/** Hears what goes wrong on a connection nobody is querying (PostgreSQL restarted under it). */
export type ConnectionErrorListener = (err: Error) => void;

/** How long a query waits for a connection to be opened before failing (a 503) rather than hang. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A PostgreSQL restart ends every connection: the idle ones, and one held by a transaction
 * between two queries, say so by an 'error' event, which would stop the process unheard. The
 * pool drops them and opens new ones for the next queries; the queries under way fail (a 503).
 */
export async function openPostgres(url: string, onConnectionError: ConnectionErrorListener = () => undefined): Promise<Db> {
  // A bulk action's statement triggers (lead_month_stats) hold the old and new rows it moved:
  // beyond work_mem they go to temporary files (a 100,000-lead export: 7.1 → 3.8 s with 128 MB).
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c work_mem=128MB', connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', onConnectionError);
  const client = (c: pg.Pool | pg.PoolClient): Omit<Queryable, 'copyFrom'> => ({
    parallel: true,
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await c.query(sql, params);
      return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
    },
    async exec<T>(sql: string) {
      const res = (await c.query(sql)) as pg.QueryResult | pg.QueryResult[];
      return ((Array.isArray(res) ? res.at(-1)?.rows : res.rows) ?? []) as T[];
    },
  });
  /** A connection of `fn`'s own, whose errors are heard while it is held. */
  const held = async <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const c = await pool.connect();
    c.on('error', onConnectionError);
    try {
      return await fn(c);
    } finally {
      c.off('error', onConnectionError);
      c.release();
    }
  };
  await pool.query('select 1');
  return {
    kind: 'pg',
    ...client(pool),
    copyFrom: (target, csv) => held((c) => copyIn(c, target, csv)),
    // A script that opens its own transaction (pg-boss's schema: BEGIN; …; COMMIT) and fails halfway
    // leaves its connection in the failed transaction: rolled back before the pool hands it out again.
    exec: <T>(sql: string) =>
      held(async (c) => {
        try {
          return await client(c).exec<T>(sql);
        } catch (err) {
          await c.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }),
    tx: (fn) =>
      withAfterCommit((afterCommit) =>
        held(async (c) => {
          try {
            await c.query('BEGIN');
            const result = await fn({ ...client(c), copyFrom: (target, csv) => copyIn(c, target, csv), afterCommit });
            await c.query('COMMIT');
            return result;
          } catch (err) {
            await c.query('ROLLBACK').catch(() => undefined);
            throw err;
          }
        }),
      ),
    close: () => pool.end(),
  };
}

export function openDb(opts: { databaseUrl?: string; pgliteDir?: string; pgliteImage?: Blob; onConnectionError?: ConnectionErrorListener }): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.onConnectionError) : openPglite(opts.pgliteDir, opts.pgliteImage);
}
