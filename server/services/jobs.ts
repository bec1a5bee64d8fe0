import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../db/connection';
import { STARTUP_LOCKS, takeStartupLock } from '../db/startup-locks';
import { isDatabaseUnavailable } from '../db/unavailable';

type Handler<T> = (data: T) => Promise<void>;
type BatchHandler<T> = (batch: T[]) => Promise<void>;
/** Handles the jobs fetched together and answers each one's outcome, in their order (`Promise.allSettled`). */
type EachHandler<T> = (batch: T[]) => Promise<PromiseSettledResult<unknown>[]>;

/** How a queue's jobs are retried and when one still active is taken for dead (pg-boss's send options). */
export type QueuePolicy = Pick<PgBoss.SendOptions, 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'expireInSeconds'>;

/**
 * A queue, declared once beside its handler: its name, the type of its jobs' payload and their
 * retry policy (the same for every job, or chosen from the payload), which every send applies.
 */
export interface Queue<T extends object> {
  readonly name: string;
  readonly policy: (data: T) => QueuePolicy;
  /**
   * At most one of its jobs runs at a time, whichever instance fetches it (pg-boss's 'singleton'
   * queue): the others wait queued. For the database's upkeep, which two instances started
   * together would otherwise run at once (two builds of one index deadlock).
   */
  readonly oneAtATime: boolean;
}

export function defineQueue<T extends object = Record<string, never>>(
  name: string,
  policy: QueuePolicy | ((data: T) => QueuePolicy) = {},
  { oneAtATime = false }: { oneAtATime?: boolean } = {},
): Queue<T> {
  return { name, policy: typeof policy === 'function' ? policy : () => policy, oneAtATime };
}

/** What a send may add to the queue's policy: a job id, so that the same job is queued once. */
type SendOptions = Pick<PgBoss.SendOptions, 'id'>;

interface WorkerOptions {
  cron?: string;
  /** Jobs fetched together (handled one after the other, or at once by a batch handler). */
  batchSize?: number;
  /** How often its workers look for jobs on PostgreSQL besides the due check (SAFETY_POLL_SECONDS without). */
  pollingIntervalSeconds?: number;
  /** Workers of this queue on PostgreSQL, each routing its own batch at the same time; PGlite (one connection) always runs one. */
  workers?: number;
  /** Also queue one run `{ at_start: true }` when this instance starts (catching up on what happened while it was down). */
  atStart?: boolean;
}

export interface Jobs {
  /** Gives a queue its worker, run on demand or, with `cron`, on that schedule (Paris time); call before `start`. */
  register<T extends object>(queue: Queue<T>, handler: Handler<T>, opts?: WorkerOptions): void;
  /** The same for a handler that takes the jobs fetched together at once (up to `batchSize`); they fail or succeed together. */
  registerBatch<T extends object>(queue: Queue<T>, handler: BatchHandler<T>, opts?: WorkerOptions): void;
  /** The same for a handler that takes them at once and answers each one's outcome: only those rejected fail (and are retried). */
  registerEach<T extends object>(queue: Queue<T>, handler: EachHandler<T>, opts?: WorkerOptions): void;
  /** Queues a job and wakes this instance's worker of that queue (no wait for its next poll); null when a job with the same `id` exists. */
  send<T extends object>(queue: Queue<T>, data: T, opts?: SendOptions): Promise<string | null>;
  /** Queues a job inside the caller's transaction (it exists only if that commits); `wake` the worker after the commit. */
  sendIn<T extends object>(q: Queryable, queue: Queue<T>, data: T, opts?: SendOptions): Promise<string | null>;
  /** Queues several jobs of a queue inside the caller's transaction in one statement (a job whose `id` exists is skipped). */
  sendManyIn<T extends object>(q: Queryable, queue: Queue<T>, jobs: Array<{ data: T } & SendOptions>): Promise<void>;
  /** Wakes this instance's worker of a queue now instead of at its next poll. */
  wake(queue: Pick<Queue<object>, 'name'>): void;
  start(): Promise<void>;
  /** Stops fetching and waits for the handlers and pg-boss statements under way: the database can be closed after it. */
  stop(): Promise<void>;
  /** Whether the queue is running and its tables answer (GET /api/ready). */
  reachable(): Promise<boolean>;
}

/**
 * pg-boss over our own connection: parameterless SQL may hold several statements (pg-boss's own
 * migrations), which only `exec` accepts (PGlite refuses them in `query`; node-postgres answers
 * them with one result per statement).
 */
function executeSql(db: Db) {
  return async (text: string, values?: unknown[]) => {
    if (!values || values.length === 0) return { rows: await db.exec(text) };
    return db.query(text, values ?? []);
  };
}

/**
 * An instance's own sends wake the worker of their queue, and the jobs that come due without one
 * (a schedule's run queued by pg-boss, a retry after its delay, jobs sent by another instance or
 * left by one that stopped) are found by one statement every second for all queues. Each worker's
 * own poll is then a safety net (a queue may ask to poll more often on PostgreSQL: the offers, which
 * every instance then shares). Every queue polling every second cost PGlite's thread a third of its
 * time under load, and an idle server on PostgreSQL 33 ms of CPU a second (docs/performance.md).
 * On PGlite the statement is prepared once: planned anew, a statement over pg-boss's job table (a
 * partition per queue) costs ten times its execution there.
 */
const DUE_CHECK_MS = 1000;
const DUE_SQL = "SELECT DISTINCT name FROM pgboss.job WHERE state < 'active' AND start_after < now()";
const SAFETY_POLL_SECONDS = 30;
/**
 * Each jobs instance's prepared statement has a name of its own (tests run a second one on a
 * server's database); it is never deallocated: it ends with the database's session, and a stop
 * must not query a database that may be gone (its folder removed under the server).
 */
let dueStatements = 0;

/** How long `stop` waits for handlers under way before closing anyway (pg-boss fails their jobs, retried at the next start). */
const STOP_TIMEOUT_MS = 10_000;

/** Handler runs and pg-boss statements under way, to wait for at shutdown. */
function inFlight() {
  const pending = new Set<Promise<unknown>>();
  return {
    track<T>(p: Promise<T>): Promise<T> {
      pending.add(p);
      const forget = () => pending.delete(p);
      p.then(forget, forget);
      return p;
    },
    /**
     * Resolves once nothing is under way. pg-boss starts statements after a handler settles
     * (completing its jobs, without awaiting them) and may still be fetching when stopped, so a
     * settled round is followed by a turn of the event loop and checked again.
     */
    async drained(deadline: number) {
      while (pending.size > 0 && Date.now() < deadline) {
        await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, deadline - Date.now()))]);
        await new Promise((r) => setImmediate(r));
      }
      return pending.size === 0;
    },
  };
}

export interface JobsOptions {
  /**
   * How often this instance checks for due schedules (pg-boss's cron monitor, 30 s by default).
   * Whatever the number of instances, one of them queues each due run: pg-boss lets one check
   * through per interval and keeps one job per schedule and minute.
   */
  cronCheckSeconds?: number;
}

export function createJobs(db: Db, log: Pick<Logger, 'error' | 'warn'>, { cronCheckSeconds }: JobsOptions = {}): Jobs {
  // Every pg-boss statement and handler run is tracked: pg-boss's graceful stop waits only for
  // workers holding jobs, not for a fetch under way (whose jobs are then handled after the stop)
  // nor for the completion it sends after a handler, which then met an ended pool
  // ("Cannot use a pool after calling end") once several workers made that window likely.
  const underWay = inFlight();
  const execute = executeSql(db);
  const boss = new PgBoss({
    db: { executeSql: (text, values) => underWay.track(execute(text, values)) },
    schema: 'pgboss',
    // PGlite is one connection shared with requests: poll gently. On PostgreSQL, the maintenance
    // also fails the jobs of an instance that died (active past their expiry) so that they are
    // retried: every minute, run by one instance.
    supervise: true,
    maintenanceIntervalSeconds: db.parallel ? 60 : 300,
    // A due run is checked for, then queued by a worker polling as often.
    ...(cronCheckSeconds ? { cronMonitorIntervalSeconds: cronCheckSeconds, cronWorkerIntervalSeconds: cronCheckSeconds } : {}),
  });
  // While the database restarts every poll fails: a warning each; workers poll again by themselves.
  const reportError = (err: Error) =>
    isDatabaseUnavailable(err)
      ? log.warn({ code: (err as { code?: string }).code, reason: err.message }, 'pg-boss: database unavailable')
      : log.error({ err }, 'pg-boss');
  boss.on('error', reportError);
  let stopped = false;
  boss.on('stopped', () => (stopped = true));
  /** Each queue's handler: the jobs it does not fail itself complete once it returns; all fail if it throws. */
  const handlers = new Map<string, { handler: (jobs: PgBoss.Job<object>[]) => Promise<void>; opts: WorkerOptions; oneAtATime: boolean }>();
  const each = (name: string, handler: EachHandler<object>) => async (jobs: PgBoss.Job<object>[]) => {
    const outcomes = await handler(jobs.map((job) => job.data));
    for (const [i, outcome] of outcomes.entries())
      // As pg-boss fails a job whose handler threw: retried as its policy says, the error as its output.
      if (outcome.status === 'rejected') await boss.fail(name, jobs[i]!.id, outcome.reason);
  };
  /** Each queue's workers, and whether each is running its handler (a wake goes to an idle one). */
  const workers = new Map<string, { id: string; busy: boolean }[]>();
  let started = false;
  let dueCheck: NodeJS.Timeout | undefined;
  const due = `jobs_due_${++dueStatements}`;

  const wake = (name: string) => {
    const queue = workers.get(name) ?? [];
    const idle = queue.find((w) => !w.busy);
    // All busy: each fetches again as soon as its batch is done instead of at its next poll.
    for (const w of idle ? [idle] : queue) boss.notifyWorker(w.id);
  };

  const wakeDue = async () => {
    try {
      // A queue without a worker here (pg-boss's own) is woken for nothing.
      const { rows } = await underWay.track(db.query<{ name: string }>(db.parallel ? DUE_SQL : `EXECUTE ${due}`));
      for (const { name } of rows) wake(name);
    } catch (err) {
      reportError(err as Error);
    }
    if (started) dueCheck = setTimeout(() => void wakeDue(), DUE_CHECK_MS);
  };

  return {
    register(queue, handler, opts = {}) {
      const one = handler as Handler<object>;
      handlers.set(queue.name, {
        handler: each(queue.name, async (batch) => {
          const outcomes: PromiseSettledResult<unknown>[] = [];
          for (const data of batch) outcomes.push((await Promise.allSettled([one(data)]))[0]!);
          return outcomes;
        }),
        opts,
        oneAtATime: queue.oneAtATime,
      });
    },
    registerBatch(queue, handler, opts = {}) {
      const all = handler as BatchHandler<object>;
      handlers.set(queue.name, { handler: (jobs) => all(jobs.map((job) => job.data)), opts, oneAtATime: queue.oneAtATime });
    },
    registerEach(queue, handler, opts = {}) {
      handlers.set(queue.name, { handler: each(queue.name, handler as EachHandler<object>), opts, oneAtATime: queue.oneAtATime });
    },
    async send(queue, data, opts = {}) {
      const id = await boss.send(queue.name, data, { ...queue.policy(data), ...opts });
      if (id) wake(queue.name);
      return id;
    },
    sendIn: (q, queue, data, opts = {}) =>
      boss.send(queue.name, data, { ...queue.policy(data), ...opts, db: { executeSql: (text, values) => q.query(text, values ?? []) } }),
    async sendManyIn(q, queue, list) {
      if (list.length === 0) return;
      await boss.insert(
        list.map(({ data, ...opts }) => ({ name: queue.name, data, ...queue.policy(data), ...opts })),
        { db: { executeSql: (text, values) => q.query(text, values ?? []) } },
      );
    },
    wake: (queue) => wake(queue.name),
    async start() {
      const startQueues = async () => {
        await boss.start();
        for (const [name, { oneAtATime }] of handlers) {
          const policy = oneAtATime ? 'singleton' : 'standard';
          await boss.createQueue(name, { name, policy });
          // A queue created before it was declared so keeps its policy otherwise (its new jobs take it).
          if (oneAtATime) await boss.updateQueue(name, { name, policy });
        }
      };
      // pg-boss creates its schema and each queue (a row of pgboss.queue, then a partition with a
      // foreign key to that table) in ways that deadlock when two instances do it at once: they
      // take turns, this one holding the lock on a connection of its own while pg-boss works on
      // others. PGlite serves one process: nobody to take turns with.
      if (db.parallel) {
        await db.tx(async (q) => {
          await takeStartupLock(q, STARTUP_LOCKS.jobQueues);
          await startQueues();
        });
      } else {
        await startQueues();
        await retryInterrupted(db, boss);
      }
      for (const [name, { handler, opts }] of handlers) {
        const { cron, batchSize = 1 } = opts;
        const pollingIntervalSeconds = (db.parallel && opts.pollingIntervalSeconds) || SAFETY_POLL_SECONDS;
        const count = db.parallel ? (opts.workers ?? 1) : 1;
        const queue: { id: string; busy: boolean }[] = [];
        for (let i = 0; i < count; i++) {
          const worker = { id: '', busy: false };
          const run = async (jobs: PgBoss.Job<object>[]) => {
            worker.busy = true;
            try {
              await handler(jobs);
            } finally {
              worker.busy = false;
            }
            // pg-boss waits its polling interval after every fetch, even a full one: with a backlog
            // that was one delivery a second. A full batch means more are waiting: fetch again now.
            if (jobs.length === batchSize) boss.notifyWorker(worker.id);
          };
          worker.id = await boss.work<object>(name, { pollingIntervalSeconds, batchSize }, (jobs) => underWay.track(run(jobs)));
          queue.push(worker);
        }
        workers.set(name, queue);
        if (cron) await boss.schedule(name, cron, {}, { tz: 'Europe/Paris' });
        if (opts.atStart) {
          await boss.send(name, { at_start: true });
          wake(name);
        }
      }
      started = true;
      if (!db.parallel) await db.exec(`PREPARE ${due} AS ${DUE_SQL}`);
      dueCheck = setTimeout(() => void wakeDue(), DUE_CHECK_MS);
    },
    async stop() {
      if (!started) return;
      started = false;
      clearTimeout(dueCheck);
      const deadline = Date.now() + STOP_TIMEOUT_MS;
      // pg-boss's own wait ends once no worker holds jobs; it then fails those still held.
      await boss.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS });
      if (!(await underWay.drained(deadline))) log.error('pg-boss: handlers still running at shutdown');
    },
    async reachable() {
      if (!started || stopped) return false;
      return boss.getQueues().then(
        () => true,
        () => false,
      );
    },
  };
}

/**
 * On PGlite this process alone opens the database (its folder is locked), so a job still active
 * is one the previous process was running when it was killed: failed now, so that pg-boss retries
 * it as its queue's policy says, instead of after its expiry (15 minutes by default).
 */
async function retryInterrupted(db: Db, boss: PgBoss) {
  const { rows } = await db.query<{ name: string; ids: string[] }>(
    `SELECT name, array_agg(id::text) AS ids FROM pgboss.job WHERE state = 'active' GROUP BY name`,
  );
  for (const { name, ids } of rows) await boss.fail(name, ids);
}
