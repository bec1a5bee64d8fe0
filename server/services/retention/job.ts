import type { AppContext } from '../../context';
import { defineQueue } from '../jobs';
import { archiveOldLeads } from './archive';

export const RETENTION_JOB = defineQueue('retention.archive');

/** With RETENTION_MONTHS set, the leads older than it are archived every night (03:15 Paris time), once across instances. */
export function registerRetentionJobs(ctx: Pick<AppContext, 'db' | 'jobs' | 'config' | 'log'>) {
  if (!ctx.config.RETENTION_MONTHS) return;
  ctx.jobs.register(
    RETENTION_JOB,
    async () => {
      const { months, leads } = await archiveOldLeads(ctx, null);
      if (leads) ctx.log.info({ months, leads }, 'retention: old leads archived');
    },
    { cron: '15 3 * * *' },
  );
}
