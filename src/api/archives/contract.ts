import { z } from 'zod';

/** A month of the archive, 'YYYY-MM' (Paris time). */
export const archiveMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Mois invalide, attendu AAAA-MM avec un mois de 01 à 12');

export const archiveMonthParams = z.object({ month: archiveMonth });

/** One file of the archive: the leads of one landing created in one month, their sales and delivery history. */
const leadArchive = z.object({
  month: archiveMonth,
  landing_id: z.number(),
  landing_name: z.string(),
  leads: z.number(),
  bytes: z.number(),
  /** 'deleting' while its leads are still being removed from the database; 'restored' once brought back (the file is gone). */
  state: z.enum(['deleting', 'archived', 'restored']),
  archived_at: z.string(),
});

/** GET /api/exports/archives: every archived file, oldest month first, and the retention in force (null: off). */
export const leadArchivesResponse = z.object({ data: z.array(leadArchive), retention_months: z.number().nullable() });

/** POST /api/exports/archives/run: the months archived by this run and their leads. */
export const archiveRunResponse = z.object({ data: z.object({ months: z.array(archiveMonth), leads: z.number() }), message: z.string() });

/** POST /api/exports/archives/:month/restore: the leads brought back, with their ids. */
export const archiveRestoreResponse = z.object({ data: z.object({ month: archiveMonth, leads: z.number() }), message: z.string() });
