// `BENCH_EXPLAIN=1 npm run bench -- leads`: the EXPLAIN (ANALYZE, BUFFERS) of every statement that the
// measured paths run (lead pages, exact counts, statistics, regions, status change and its undo),
// printed as the server's own services issue them on the bench database, so the plans of
// docs/performance.md can be taken again at any size. A write is explained inside a savepoint
// rolled back before the statement itself runs.
import type { Db, Queryable, Tx } from '../../server/db/connection';
import { countMatching, listLeads } from '../../server/services/leads/list';
import { filtersFromQuery } from '../../server/services/leads/filters';
import { getLandings } from '../../server/services/leads/landings';
import { departmentStats } from '../../server/services/leads/stats';
import { changeStatus, undoAction } from '../../server/services/leads/status';
import { regionsData } from '../../server/services/productions/regions';
import type { SessionUser } from '../../server/services/auth/sessions';
import { leadListQuery, statusChangeRequest } from '../../src/api/leads/contract';
import { productionCategory, regionsDataQuery } from '../../src/api/productions/contract';

type Plans = Array<{ sql: string; plan: string }>;

const isWrite = (sql: string) => /^\s*(WITH\b[\s\S]*?\b)?(INSERT|UPDATE|DELETE)\b/i.test(sql) && !/^\s*SELECT\b/i.test(sql);

function explaining<Q extends Queryable>(q: Q, plans: Plans, inTx: boolean): Q {
  const explain = async (sql: string, params: unknown[]) => {
    if (!/^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(sql)) return;
    if (isWrite(sql) && !inTx) return;
    if (isWrite(sql)) await q.query('SAVEPOINT bench_explain');
    const { rows } = await q.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    if (isWrite(sql)) await q.query('ROLLBACK TO SAVEPOINT bench_explain');
    plans.push({ sql: sql.replace(/\s+/g, ' ').trim(), plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
  };
  return new Proxy(q, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return async (sql: string, params: unknown[] = []) => {
          await explain(sql, params);
          return target.query(sql, params);
        };
      if (prop === 'tx') return (fn: (t: Tx) => Promise<unknown>) => (target as unknown as Db).tx((t) => fn(explaining(t, plans, true)));
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export interface ExplainInput {
  /** Every landing (the statistics), then those of the first landing's map category (its page, count and regions). */
  landingIds: number[];
  category: string;
  categoryIds: number[];
  name: string;
  statusIds: number[];
  adminId: number;
}

/** Runs each measured path once through the services on `db` and prints the plans of its statements. */
export async function explainLeadPaths(db: Db, input: ExplainInput) {
  const [first] = await getLandings(db, [input.landingIds[0]!]);
  const end = new Date().toISOString().slice(0, 10);
  const parisDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Paris' });
  const start = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const raw = { entry_status: 'new', 'filter[nom]': input.name };
  const user: SessionUser = { id: input.adminId, email: 'bench', name: 'Bench', admin: true };
  const keyOf = (type: string) => first!.columns.find((c) => c.type === type)!.key;
  const count = (query: Record<string, string>) => (q: Db) => countMatching(q, [first!], leadListQuery.parse(query), filtersFromQuery(query));
  const page = (query: Record<string, string>) => (q: Db) => listLeads(q, [first!], leadListQuery.parse({ ...query, _limit: '150' }), filtersFromQuery(query));
  const paths: Array<[string, (q: Db) => Promise<unknown>]> = [
    ['lead page, 150 rows, filter on a form column', page(raw)],
    ['exact count of a filtered tab', count(raw)],
    ['exact count, an email', count({ entry_status: 'new', [`filter[${keyOf('email')}]`]: 'bernard' })],
    ['exact count, a postal code', count({ entry_status: 'new', [`filter[${keyOf('postal_code')}]`]: '130' })],
    ['lead page, 150 rows, a UTM source no lead has', page({ entry_status: 'new', 'filter[utm_source]': 'zq1x' })],
    ['lead page, 150 rows, a month long past', page({ entry_status: 'new', 'date[created_at]': `${parisDay(150)}<>${parisDay(120)}` })],
    [
      'lead page, 150 rows, a month long past and a department',
      page({ entry_status: 'new', 'date[created_at]': `${parisDay(150)}<>${parisDay(120)}`, 'in[departement]': '69' }),
    ],
    ['exact count, a range of last changes', count({ entry_status: 'new', 'date[updated_at]': `${parisDay(20)}<>${parisDay(2)}` })],
    ['department statistics, all landings, one year', (q) => departmentStats(q, { ids: input.landingIds, category: 'production', start, end, zone: false })],
    [
      'map regions, one year',
      (q) =>
        regionsData(
          q,
          productionCategory.parse(input.category),
          regionsDataQuery.parse({ date_range: `${start}<>${end}`, landings: input.categoryIds.join(',') }),
        ),
    ],
    [
      `status change of ${input.statusIds.length} leads, then its undo`,
      async (q) => {
        const request = statusChangeRequest.parse({ entry_status: 'archived', from_status: 'new', leads: input.statusIds });
        const done = await changeStatus(q, user, { ...request, entry_status: 'archived' });
        await undoAction(q, user, done.data.action_id);
      },
    ],
  ];
  for (const [name, run] of paths) {
    const plans: Plans = [];
    await run(explaining(db, plans, false));
    console.log(`\n### ${name}\n`);
    for (const p of plans) console.log(`${p.sql.slice(0, 400)}${p.sql.length > 400 ? ' …' : ''}\n\n${p.plan}\n`);
  }
}
