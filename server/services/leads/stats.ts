import type { z } from 'zod';
import type { DepartmentStat, StatsCategory, statsParams } from '../../../src/api/contract/leads';
import { leadSources } from '../../../src/api/contract/leads';
import type { Queryable } from '../../db/connection';
import { validationFailed } from '../../errors';
import { parisDayStart } from './filters';
import { getLandings } from './landings';

/** Which leads each category counts, among those created in the date range. */
const statusOf: Record<StatsCategory, string | null> = {
  production: null,
  stock: 'new',
  convertis: 'converted',
  production_extracted: 'extracted',
};

/**
 * Counts of leads per department (or per climate zone), overall (`value`) and per source, for
 * the leads of the landings created between start and end inclusive (days in Paris time).
 */
export async function departmentStats(db: Queryable, p: z.output<typeof statsParams>): Promise<DepartmentStat[]> {
  if (p.start > p.end) throw validationFailed({ end: 'La date de fin précède la date de début' }, 'La date de fin précède la date de début');
  await getLandings(db, p.ids);
  const perSource = leadSources.map((s) => `count(*) FILTER (WHERE source = '${s}')::int AS ${s}`).join(', ');
  const group = p.zone ? `''::text AS departement, zone_climatique` : 'departement, max(zone_climatique) AS zone_climatique';
  const { rows } = await db.query<DepartmentStat>(
    `SELECT ${group}, count(*)::int AS value, ${perSource}
       FROM leads
      WHERE landing_id = ANY($1::int[]) AND created_at >= ${parisDayStart('$2')} AND created_at < ${parisDayStart('($3::date + 1)')}
        AND ($4::text IS NULL OR entry_status = $4)
      GROUP BY ${p.zone ? 'zone_climatique' : 'departement'}
      ORDER BY 1, 2`,
    [p.ids, p.start, p.end, statusOf[p.category]],
  );
  return rows;
}
