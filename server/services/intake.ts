import { z } from 'zod';
import { leadSource, trackingFields } from '../../src/api/leads/contract';
import type { AppContext } from '../context';
import { notFound, validationFailed } from '../errors';
import { writeIntake } from './intake-writer';
import { getIntakeLanding } from './leads/landings';
import { deriveFields, MAX_CELL_LENGTH, normalizeCell, own, setValue, type Cell } from './leads/normalize';

const body = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]), 'Formulaire invalide');
const tracking = z.object({
  source: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), leadSource).default('autre'),
  ...Object.fromEntries(trackingFields.filter((f) => f !== 'source').map((f) => [f, z.string().trim().max(MAX_CELL_LENGTH, 'Valeur trop longue').nullish()])),
});

/**
 * A lead posted by a landing page: checked against the landing's columns (422 naming each faulty
 * field), department and climate zone derived from the postal code, phone normalised, duplicates
 * flagged (same phone or email on this landing within 30 days), written with the intakes arriving
 * meanwhile (intake-writer.ts). Answers the lead and where the landing sends its form posts afterwards.
 */
export async function intakeLead(ctx: Pick<AppContext, 'db' | 'jobs' | 'log'>, key: string, input: unknown) {
  const { db } = ctx;
  const landing = await getIntakeLanding(db, key);
  if (!landing) throw notFound('Landing inconnue');
  const parsed = body.safeParse(input);
  if (!parsed.success) throw validationFailed({ _: 'Formulaire invalide' });
  const form = parsed.data as Record<string, Cell>;

  const errors: Record<string, string> = {};
  const data: Record<string, unknown> = {};
  for (const column of landing.columns) {
    const cell = normalizeCell(column, own(form, column.key));
    if (!cell.ok) errors[column.key] = cell.message;
    else if (cell.value !== null) setValue(data, column.key, cell.value);
  }
  const fields = tracking.safeParse(Object.fromEntries(trackingFields.map((f) => [f, own(form, f)])));
  if (!fields.success) for (const issue of fields.error.issues) errors[issue.path.join('.')] ??= issue.message;
  if (Object.keys(errors).length || !fields.success) throw validationFailed(errors);
  const t = fields.data as Record<(typeof trackingFields)[number], string | null | undefined> & { source: z.infer<typeof leadSource> };

  const lead = await writeIntake(ctx, {
    landingId: landing.id,
    lead: {
      data,
      source: t.source,
      utm_source: t.utm_source ?? null,
      utm_medium: t.utm_medium ?? null,
      utm_campaign: t.utm_campaign ?? null,
      url_presale: t.url_presale ?? null,
      visitor: t.visitor ?? null,
      ...deriveFields(landing.columns, data),
    },
  });
  return { lead, thankYouUrl: landing.thank_you_url };
}
