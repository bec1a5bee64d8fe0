import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Db } from '../db/connection';

type Handler<T> = (data: T) => Promise<void>;

export interface Jobs {
  /** Declares a queue and its worker, run on demand or, with `cron`, on that schedule (Paris time); call before `start`. */
  register<T extends object>(name: string, handler: Handler<T>, opts?: { cron?: string }): void;
  send<T extends object>(name: string, data: T): Promise<string | null>;
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
  const handlers = new Map<string, { handler: Handler<object>; cron?: string }>();
  let started = false;

  return {
    register(name, handler, opts = {}) {
      handlers.set(name, { handler: handler as Handler<object>, cron: opts.cron });
    },
    send: (name, data) => boss.send(name, data),
    async start() {
      await boss.start();
      for (const [name, { handler, cron }] of handlers) {
        await boss.createQueue(name);
        await boss.work<object>(name, { pollingIntervalSeconds: 1 }, async (jobs) => {
          for (const job of jobs) await handler(job.data);
        });
        if (cron) await boss.schedule(name, cron, {}, { tz: 'Europe/Paris' });
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
