import type { z } from 'zod';
import { entryStatus, leadSources } from '../../../src/api/leads/contract';
import { toRegion, type ProductionCategory, type RegionsData, type regionsDataQuery } from '../../../src/api/productions/contract';
import type { Queryable } from '../../db/connection';
import { Params } from '../../db/params';
import { validationFailed } from '../../errors';
import { getLandings } from '../leads/landings';
import { rangeCounts } from '../leads/stats';
import { departementOf, isMapDepartement } from './departments';

type Counts = { departement: string; entry_status: string; value: number } & Record<(typeof leadSources)[number], number>;

/** The landings of a production read, each of the map's category (else 422); unknown ones → 404. */
export async function categoryLandings(db: Queryable, category: ProductionCategory, ids: number[]) {
  const landings = await getLandings(db, ids);
  const foreign = landings.find((l) => l.category !== category);
  if (foreign)
    throw validationFailed({ landings: `La landing ${foreign.name} n'est pas de cette catégorie` }, `La landing ${foreign.name} n'est pas de cette catégorie`);
  return landings;
}

const days = (start: string, end: string) => Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1;

/**
 * The production of a category's landings over a period: per source and per status over the
 * chosen departments (all of them when none is named), and the count of every department of
 * the map for the choropleth. One read of the lead statistics (lead_month_stats for the whole
 * months, the leads for the days at both ends), grouped by department and status.
 */
export async function regionsData(db: Queryable, category: ProductionCategory, query: z.output<typeof regionsDataQuery>): Promise<RegionsData> {
  const chosen = query.departement ? new Set(query.departement.map(departementOf)) : null;
  await categoryLandings(db, category, query.landings);

  const [start, end] = query.date_range;
  const params = new Params();
  const counts = rangeCounts(start, end, { landings: `${params.add(query.landings)}::int[]`, statuses: `${params.add(entryStatus.options)}::text[]` }, params);
  const { rows } = await db.query<Counts>(
    `SELECT departement, entry_status, ${['value', ...leadSources].map((c) => `sum(${c})::int AS ${c}`).join(', ')}
       FROM (${counts}) counts GROUP BY 1, 2`,
    params.values,
  );

  const perDepartment = new Map<string, number>();
  const sources = new Map<string, number>(leadSources.map((s) => [s, 0]));
  const statuses = new Map<string, number>(entryStatus.options.map((s) => [s, 0]));
  for (const row of rows) {
    if (isMapDepartement(row.departement)) perDepartment.set(row.departement, (perDepartment.get(row.departement) ?? 0) + row.value);
    if (chosen && !chosen.has(row.departement)) continue;
    for (const s of leadSources) sources.set(s, sources.get(s)! + row[s]);
    statuses.set(row.entry_status, (statuses.get(row.entry_status) ?? 0) + row.value);
  }
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  return {
    sources: leadSources.map((key) => ({ key, value: sources.get(key)! })),
    stats: [
      { key: 'total', value: total },
      ...entryStatus.options.map((key) => ({ key, value: statuses.get(key)! })),
      { key: 'per_day', value: Math.round((total / days(start, end)) * 10) / 10 },
    ],
    departments: [...perDepartment]
      .filter(([, value]) => value > 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([departement, value]) => ({ region: toRegion(departement), value })),
  };
}
