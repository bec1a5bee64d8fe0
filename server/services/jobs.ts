import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../db/connection';

type Handler<T> = (data: T) => Promise<void>;

interface WorkerOptions {
  cron?: string;
  /** Jobs fetched together (handled one after the other). */
  batchSize?: number;
  pollingIntervalSeconds?: number;
  /** Also queue one run `{ at_start: true }` when this instance starts (catching up on what happened while it was down). */
  atStart?: boolean;
}

export interface Jobs {
  /** Declares a queue and its worker, run on demand or, with `cron`, on that schedule (Paris time); call before `start`. */
  register<T extends object>(name: string, handler: Handler<T>, opts?: WorkerOptions): void;
  /** Queues a job and wakes this instance's worker of that queue (no wait for its next poll); null when a job with the same `id` exists. */
  send<T extends object>(name: string, data: T, opts?: PgBoss.SendOptions): Promise<string | null>;
  /** Queues a job inside the caller's transaction (it exists only if that commits); `wake` the worker after the commit. */
  sendIn<T extends object>(q: Queryable, name: string, data: T, opts?: PgBoss.SendOptions): Promise<string | null>;
  /** Wakes this instance's worker of a queue now instead of at its next poll. */
  wake(name: string): void;
  start(): Promise<void>;
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

export function createJobs(db: Db, log: Pick<Logger, 'error'>): Jobs {
  const boss = new PgBoss({
    db: { executeSql: executeSql(db) },
    schema: 'pgboss',
    // PGlite is one connection shared with requests: poll gently.
    supervise: true,
    maintenanceIntervalSeconds: 300,
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss'));
  let stopped = false;
  boss.on('stopped', () => (stopped = true));
  const handlers = new Map<string, { handler: Handler<object>; opts: WorkerOptions }>();
  const workers = new Map<string, string>();
  let started = false;

  return {
    register(name, handler, opts = {}) {
      handlers.set(name, { handler: handler as Handler<object>, opts });
    },
    async send(name, data, opts = {}) {
      const id = await boss.send(name, data, opts);
      const worker = workers.get(name);
      if (id && worker) boss.notifyWorker(worker);
      return id;
    },
    sendIn: (q, name, data, opts = {}) => boss.send(name, data, { ...opts, db: { executeSql: (text, values) => q.query(text, values ?? []) } }),
    wake(name) {
      const worker = workers.get(name);
      if (worker) boss.notifyWorker(worker);
    },
    async start() {
      await boss.start();
      for (const [name, { handler, opts }] of handlers) {
        await boss.createQueue(name);
        const { cron, batchSize = 1, pollingIntervalSeconds = 1 } = opts;
        const worker = await boss.work<object>(name, { pollingIntervalSeconds, batchSize }, async (jobs) => {
          for (const job of jobs) await handler(job.data);
        });
        workers.set(name, worker);
        if (cron) await boss.schedule(name, cron, {}, { tz: 'Europe/Paris' });
        if (opts.atStart) await boss.send(name, { at_start: true });
      }
      started = true;
    },
    async stop() {
      if (started) await boss.stop({ graceful: true, wait: true, timeout: 5000 });
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
