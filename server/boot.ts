import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import type { AppContext } from './context';
import { listenForBackups } from './db/backup-socket';
import { openDb } from './db/connection';
import { migrate } from './db/migrate';
import { needsDemo, seedDemo } from './db/seed';
import { exportStorage, writeMissingExportFiles } from './services/exports/extract';
import { registerAccountJobs } from './services/accounts';
import { registerBigExportJobs } from './services/exports/big-export';
import { createJobs } from './services/jobs';
import { createMailer } from './services/mail';
import { registerMaintenanceJobs } from './services/maintenance';
import { registerDeliveryJobs } from './services/delivery/offer';
import { registerWebhookJobs } from './services/delivery/webhook-resume';
import { registerAlertJobs } from './services/alerts/digest';
import { registerRetentionJobs } from './services/retention/job';
import { registerEventJobs } from './services/events/outbox';
import { registerWorldJobs } from './services/delivery/replay-world';
import { ensureAdmin } from './services/users';
import { setPasswordCost } from './services/auth/passwords';
import { createLogger } from './logger';

export interface Booted {
  app: FastifyInstance;
  ctx: AppContext;
  /** Stops jobs, the HTTP server and the database, in that order. */
  close(): Promise<void>;
}

/** Opens the database, migrates it, prepares jobs and mail, and builds the HTTP app. */
/** `logStream`: where the log lines go instead of stdout (the log test reads them). */
export async function boot(config: Config, opts: { logger?: boolean; distDir?: string; logStream?: DestinationStream } = {}): Promise<Booted> {
  const log = createLogger(config.LOG_LEVEL, opts.logger !== false, opts.logStream);
  const onConnectionError = (err: Error) => log.warn({ code: (err as { code?: string }).code, reason: err.message }, 'database connection lost');
  const db = await openDb({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir, pgliteImage: config.pgliteImage, onConnectionError });
  await migrate(db);
  setPasswordCost(config.PASSWORD_HASH_COST);
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) await ensureAdmin(db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);

  if (config.seedDemo && (await needsDemo(db))) {
    const started = Date.now();
    const { leads } = await seedDemo(db);
    const files = await writeMissingExportFiles(db, exportStorage(config));
    log.info({ leads, exportFiles: files, ms: Date.now() - started }, 'demo data seeded');
  }
  const ctx: AppContext = {
    config,
    db,
    jobs: createJobs(db, log, { cronCheckSeconds: config.cronCheckSeconds }),
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: join(config.dataDir, 'outbox'), log }),
    log,
  };
  registerAccountJobs(ctx);
  registerMaintenanceJobs(ctx);
  registerDeliveryJobs(ctx);
  registerBigExportJobs(ctx);
  registerWebhookJobs(ctx);
  registerAlertJobs(ctx);
  registerRetentionJobs(ctx);
  registerEventJobs(ctx);
  registerWorldJobs(ctx);
  const app = await buildApp(ctx, opts.distDir);
  await listenForBackups(app);
  await ctx.jobs.start();

  return {
    app,
    ctx,
    async close() {
      await ctx.jobs.stop();
      await app.close();
      await db.close();
    },
  };
}
