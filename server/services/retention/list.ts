import type { z } from 'zod';
import type { leadArchivesResponse } from '../../../src/api/archives/contract';
import type { AppContext } from '../../context';

/** Every archived file, oldest month first, and the retention in force. */
export async function listArchives(ctx: Pick<AppContext, 'db' | 'config'>): Promise<z.input<typeof leadArchivesResponse>> {
  const { rows } = await ctx.db.query<z.input<typeof leadArchivesResponse>['data'][number]>(
    `SELECT to_char(month, 'YYYY-MM') AS month, landing_id, landing_name, leads, bytes, state, archived_at::text
       FROM lead_archives ORDER BY month, landing_id`,
  );
  return { data: rows, retention_months: ctx.config.RETENTION_MONTHS ?? null };
}
