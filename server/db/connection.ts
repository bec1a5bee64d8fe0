import { mkdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
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
   * `COPY target FROM STDIN` of `lines` (each a row in COPY's text format, without its line break):
   * the database's own bulk input, with its triggers and checks, in a quarter to a half of the time
   * of an `INSERT … unnest` of the same rows (docs/performance.md). On PostgreSQL the lines are
   * read as they are sent, so that a generator builds them while the database copies the ones
   * before; if it throws, the COPY fails with its error and copies nothing. Answers the number of
   * rows copied.
   */
  copyFrom(target: string, lines: CopyLines): Promise<number>;
  /**
   * `COPY (query) TO STDOUT (FORMAT binary)`: its output as it comes, piece by piece, to `write`,
   * which must have used (copied) a piece when it returns; while a promise it returned is pending,
   * no more is read from the database. Resolves once the COPY is done and every such promise has
   * settled; rejects with the first error `write` threw or rejected with, the COPY still read to
   * its end so that the connection stays usable.
   */
  copyTo(query: string, write: CopyWrite): Promise<void>;
  /**
   * Whether several connections run transactions at once (PostgreSQL's pool, and other instances on
   * the same database), or one connection runs one statement or transaction at a time (PGlite).
   * Either way the database works off this thread while it goes on.
   */
  readonly parallel: boolean;
  /** The database: PGlite embedded, or a PostgreSQL server (which has indexes PGlite goes without, search-indexes.ts). */
  readonly kind: 'pglite' | 'pg';
}

/**
 * Rows in COPY's text format, one a line (a string is not: it would iterate its characters); or
 * batches of them as they come, which the COPY waits for (an import's rows, copied as they pass
 * their checks).
 */
export type CopyLines = readonly string[] | Generator<string, void, undefined> | AsyncIterable<Iterable<string>>;

/** The lines of `lines` in batches, whichever form they came in. */
const copyBatches = (lines: CopyLines): AsyncIterable<Iterable<string>> | Iterable<Iterable<string>> => (Symbol.asyncIterator in lines ? lines : [lines]);

/** Takes a piece of a COPY's output (connection.ts `copyTo`); a promise holds the next pieces back. */
export type CopyWrite = (piece: Buffer) => Promise<void> | undefined;

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

/** A transaction run by `begin`, then its after-commit hooks in the order they were added. */
async function withAfterCommit<T>(begin: (afterCommit: Tx['afterCommit']) => Promise<T>): Promise<T> {
  const hooks: Array<() => Promise<void>> = [];
  const result = await begin((fn) => hooks.push(fn));
  for (const hook of hooks) await hook();
  return result;
}

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

/** A message to PGlite's worker (pglite-worker.mjs), less its id. */
type Request =
  | { op: 'query'; sql: string; params: unknown[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'copy'; target: string; rows: string; tx?: number }
  | { op: 'copyTo'; query: string; tx?: number }
  | { op: 'begin' | 'freeze' | 'close' }
  | { op: 'commit' | 'rollback'; tx: number }
  | { op: 'thaw'; frozen: number };

type Reply = { id: number; result?: unknown; error?: Record<string, unknown> } | { ready: true } | { failed: Record<string, unknown> };

/**
 * An error of the worker as callers read it: its message, and PostgreSQL's fields (code, detail,
 * constraint, table, column, severity, position…) that a structured clone of an Error drops.
 */
function rebuilt(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields);
}

let compiledPglite: Promise<WebAssembly.Module> | undefined;
/**
 * PGlite's WebAssembly, compiled once per process and handed to each of its workers: each worker
 * compiled its own before, twice over (a quick pass, then an optimised one), which a test run
 * paid at every server it started (docs/performance.md).
 */
function pgliteWasmModule(): Promise<WebAssembly.Module> {
  compiledPglite ??= readFile(createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm')).then((bytes) => WebAssembly.compile(bytes));
  return compiledPglite;
}

/**
 * PGlite persisted under `dir`, or in memory when `dir` is undefined; in memory, `image` (a
 * data folder dumped by `dumpDataDir`) is its starting content instead of an empty cluster.
 *
 * PGlite runs in a worker thread, so that its WebAssembly (every statement's parse, plan and
 * execution) uses the machine's second core instead of the server's JavaScript thread; this
 * side speaks to it by messages and answers the same `Db` as before (docs/architecture.md).
 */
export async function openPglite(dir: string | undefined, image?: Uint8Array): Promise<Db> {
  const wasmModule = await pgliteWasmModule();
  if (dir) mkdirSync(dir, { recursive: true });
  const unlock = dir ? lockDataDir(dir) : () => undefined;
  // The worker only reads the image: one in shared memory goes as it is, any other as a copy of
  // its own (the caller may open the same image again).
  const shared = image?.buffer instanceof SharedArrayBuffer && image.byteLength === image.buffer.byteLength;
  const imageBytes = image && !dir ? (shared ? image.buffer : new Uint8Array(image).buffer) : undefined;
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dir, image: imageBytes, settings: pgliteSettings, wasmModule },
    transferList: imageBytes instanceof ArrayBuffer ? [imageBytes] : [],
  });
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (err: Error) => void }>();
  let lastId = 0;
  let ended: Error | undefined;
  const nextId = () => ++lastId;
  const send = <T>(req: Request, id = nextId()): Promise<T> => {
    if (ended) return Promise.reject(ended);
    if (pending.size === 0) worker.ref();
    worker.postMessage({ ...req, id });
    return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (result: unknown) => void, reject }));
  };
  const settle = (id: number, fn: (p: { resolve: (result: unknown) => void; reject: (err: Error) => void }) => void) => {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    fn(waiting);
  };
  const ready = new Promise<void>((resolve, reject) => {
    const stop = (err: Error) => {
      ended ??= err;
      reject(err);
      for (const id of [...pending.keys()]) settle(id, (p) => p.reject(err));
    };
    worker.on('message', (reply: Reply) => {
      if ('ready' in reply) return resolve();
      if ('failed' in reply) return void (stop(rebuilt(reply.failed)), worker.terminate());
      settle(reply.id, (p) => (reply.error ? p.reject(rebuilt(reply.error)) : p.resolve(reply.result)));
    });
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`PGlite s'est arrêtée (fil d'exécution terminé, code ${code})`)));
  });
  await ready.catch((err: unknown) => {
    unlock();
    throw err;
  });
  // The worker keeps the process alive only while a statement waits on it: a CLI that ends
  // without closing its database exits as it did with PGlite on its own thread.
  worker.unref();
  const check = folderCheck(dir);
  const queryable = (tx?: number): Queryable => ({
    parallel: false,
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      check();
      return send<QueryResult<T>>({ op: 'query', sql, params, tx });
    },
    async exec<T>(sql: string) {
      check();
      return send<T[]>({ op: 'exec', sql, tx });
    },
    async copyFrom(target: string, lines: CopyLines) {
      check();
      if (tx === undefined) {
        const all: string[] = [];
        for await (const batch of copyBatches(lines)) for (const line of batch) all.push(line);
        return send<number>({ op: 'copy', target, rows: all.join('\n') });
      }
      // Within a transaction, which keeps them all or none, each batch is a COPY of its own as it
      // comes: the worker copies one while this thread makes the next (an import's checks).
      let copied = 0;
      for await (const batch of copyBatches(lines)) {
        const rows = [...batch];
        if (rows.length) copied += await send<number>({ op: 'copy', target, rows: rows.join('\n'), tx });
      }
      return copied;
    },
    // PGlite's COPY TO STDOUT is its '/dev/blob' device: the output comes whole, in one piece.
    async copyTo(query: string, write: CopyWrite) {
      check();
      const bytes = await send<Uint8Array>({ op: 'copyTo', query, tx });
      await write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  });
  return {
    ...queryable(),
    tx: (fn) => {
      check();
      return withAfterCommit(async (afterCommit) => {
        // The worker names a transaction, and a freeze, by the id of the message that began it.
        const id = nextId();
        await send({ op: 'begin' }, id);
        let result;
        try {
          result = await fn({ ...queryable(id), afterCommit });
        } catch (err) {
          await send({ op: 'rollback', tx: id }).catch(() => undefined);
          throw err;
        }
        await send({ op: 'commit', tx: id });
        return result;
      });
    },
    frozen: dir
      ? async (fn) => {
          const id = nextId();
          await send({ op: 'freeze' }, id);
          try {
            return await fn();
          } finally {
            await send({ op: 'thaw', frozen: id });
          }
        }
      : undefined,
    // Closing writes a checkpoint into the folder: not into a folder that is gone.
    close: async () => {
      try {
        check();
        await send({ op: 'close' });
      } catch (err) {
        if (!(err instanceof DataFolderGone)) throw err;
      } finally {
        await worker.terminate();
        unlock();
      }
    },
  };
}

/**
 * A `COPY … FROM STDIN` for node-postgres, which has no COPY stream of its own (that is the
 * `pg-copy-streams` package): its simple query, then, at the server's CopyInResponse, the lines as
 * CopyData messages and CopyDone, or CopyFail if reading the lines threw. Errors and the row count
 * come back as for any query.
 */
class CopyIn extends pg.Query {
  // Private: pg.Query reads fields of its own to choose its protocol. Kept as `this.rows` (its
  // rows-per-fetch), the COPY went through the extended protocol ending in Flush instead of Sync:
  // PostgreSQL held the COPY's answer and its transaction's locks for ever (docs/performance.md).
  readonly #lines: CopyLines;
  constructor(sql: string, lines: CopyLines) {
    super(sql);
    this.#lines = lines;
  }
  handleCopyInResponse(connection: CopyInConnection) {
    void sendLines(connection, this.#lines);
  }
}

interface CopyInConnection {
  stream: { destroyed: boolean };
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
}

/** CopyData messages of about 1 MB: a message is limited to 1 GB, and an import's rows may pass it. */
const COPY_CHUNK = 2 ** 20;

/**
 * Sends the lines about 1 MB at a time, and lets the event loop run between two: the socket then
 * hands each piece to PostgreSQL, which copies it while the next is built, and other requests
 * are served meanwhile.
 */
async function sendLines(connection: CopyInConnection, lines: CopyLines) {
  try {
    let piece: string[] = [];
    let size = 0;
    for await (const batch of copyBatches(lines)) {
      // The connection lost: its query fails on its own, nothing more to build.
      if (connection.stream.destroyed) return;
      for (const line of batch) {
        piece.push(line);
        size += line.length + 1;
        if (size < COPY_CHUNK) continue;
        connection.sendCopyFromChunk(Buffer.from(`${piece.join('\n')}\n`));
        piece = [];
        size = 0;
        await new Promise(setImmediate);
        if (connection.stream.destroyed) return;
      }
    }
    if (piece.length) connection.sendCopyFromChunk(Buffer.from(piece.join('\n')));
    connection.endCopyFrom();
  } catch (err) {
    connection.sendCopyFail(err instanceof Error ? err.message : String(err));
  }
}

function copyIn(c: pg.PoolClient, target: string, lines: CopyLines): Promise<number> {
  return new Promise((resolve, reject) => {
    const query = new CopyIn(`COPY ${target} FROM STDIN`, lines);
    query.on('end', (res) => resolve(res.rowCount ?? 0));
    query.on('error', reject);
    void c.query(query);
  });
}

/**
 * A `COPY … TO STDOUT` for node-postgres: each CopyData message's bytes to `write` as the
 * connection parses them (a view of its receive buffer, which it reuses afterwards: hence `write`
 * copies). The socket is paused while a promise of `write` is pending, so that a slow file holds
 * PostgreSQL back rather than filling this process's memory.
 */
class CopyOut extends pg.Query {
  // Private, as CopyIn's rows: pg.Query reads fields of its own.
  readonly #write: CopyWrite;
  #failed: { err: unknown } | undefined;
  #held = 0;
  #settled: Promise<void> = Promise.resolve();
  constructor(sql: string, write: CopyWrite) {
    super(sql);
    this.#write = write;
  }
  handleCopyData(msg: { chunk: Buffer }, connection: { stream: { pause(): void; resume(): void } }) {
    if (this.#failed) return;
    let wait: Promise<void> | undefined;
    try {
      wait = this.#write(msg.chunk);
    } catch (err) {
      this.#failed = { err };
    }
    if (!wait) return;
    if (this.#held++ === 0) connection.stream.pause();
    const settled = wait.then(
      () => undefined,
      (err: unknown) => void (this.#failed ??= { err }),
    );
    this.#settled = Promise.all([this.#settled, settled]).then(() => undefined);
    void settled.then(() => {
      if (--this.#held === 0) connection.stream.resume();
    });
  }
  /** Once the COPY has ended: waits for what `write` still does, then answers its failure if any. */
  async done(): Promise<void> {
    await this.#settled;
    if (this.#failed) throw this.#failed.err;
  }
}

function copyOut(c: pg.PoolClient, query: string, write: CopyWrite): Promise<void> {
  return new Promise((resolve, reject) => {
    const copy = new CopyOut(`COPY (${query}) TO STDOUT (FORMAT binary)`, write);
    copy.on('end', () => copy.done().then(resolve, reject));
    // Rejected only once `write` is done with what it had, so the connection goes back to the pool resumed.
    const failed = (err: unknown) => () => reject(err);
    copy.on('error', (err) => void copy.done().then(failed(err), failed(err)));
    void c.query(copy);
  });
}

/** Hears what goes wrong on a connection nobody is querying (PostgreSQL restarted under it). */
export type ConnectionErrorListener = (err: Error) => void;

/** How long a query waits for a connection to be opened before failing (a 503) rather than hang. */
const CONNECT_TIMEOUT_MS = 5000;

/** How long a pooled connection stays open unused: through a user's pauses, not through the night. */
const IDLE_CONNECTION_MS = 10 * 60_000;

/**
 * A PostgreSQL restart ends every connection: the idle ones, and one held by a transaction
 * between two queries, say so by an 'error' event, which would stop the process unheard. The
 * pool drops them and opens new ones for the next queries; the queries under way fail (a 503).
 */
export async function openPostgres(url: string, onConnectionError: ConnectionErrorListener = () => undefined): Promise<Db> {
  // A bulk action's statement triggers (lead_month_stats) hold the old and new rows it moved:
  // beyond work_mem they go to temporary files (a 100,000-lead export: 7.1 → 3.8 s with 128 MB).
  // JIT off whatever the server's configuration: a lead page sorted by a form column at 10,000,000
  // leads spent 1.7 s of its 2.8 compiling its expressions (docs/performance.md).
  // A new connection is a new PostgreSQL process, which maps the shared buffers page by page as it
  // first reads them: kept IDLE_CONNECTION_MS rather than pg's 10 s, so that the first click after a
  // pause does not pay for it. Idle connections do not keep a script's process alive.
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: '-c work_mem=128MB -c jit=off',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    allowExitOnIdle: true,
  });
  pool.on('error', onConnectionError);
  const client = (c: pg.Pool | pg.PoolClient): Omit<Queryable, 'copyFrom' | 'copyTo'> => ({
    parallel: true,
    kind: 'pg',
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
    ...client(pool),
    copyFrom: (target, lines) => held((c) => copyIn(c, target, lines)),
    copyTo: (query, write) => held((c) => copyOut(c, query, write)),
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
            const result = await fn({
              ...client(c),
              copyFrom: (target, lines) => copyIn(c, target, lines),
              copyTo: (query, write) => copyOut(c, query, write),
              afterCommit,
            });
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

export function openDb(opts: { databaseUrl?: string; pgliteDir?: string; pgliteImage?: Uint8Array; onConnectionError?: ConnectionErrorListener }): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.onConnectionError) : openPglite(opts.pgliteDir, opts.pgliteImage);
}
