import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadCountResponse } from '../../src/api/leads/contract';
import { Params } from '../../server/db/params';
import { leadConditions } from '../../server/services/leads/filters';
import { getLandings } from '../../server/services/leads/landings';
import { personPaths } from '../../server/services/leads/person-search';
import { searchIndexName, syncSearchIndexes } from '../../server/services/leads/search-indexes';
import { SEARCH_INDEXES_JOB } from '../../server/services/maintenance';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, formColumns, insertLeads, json } from './leads-support';

const postgres = process.env.TEST_DATABASE_URL;

describe('search indexes of the form columns', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer();
    token = await server.login(ADMIN.email, ADMIN.password);
  });
  afterAll(() => server?.close());

  const db = () => server.ctx.db;
  const indexes = async () =>
    (
      await db().query<{ name: string; valid: boolean; def: string }>(
        `SELECT c.relname AS name, i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = 'leads'::regclass AND c.relname LIKE 'leads\\_search\\_%' ORDER BY 1`,
      )
    ).rows;
  const statistics = async () =>
    (await db().query<{ name: string }>(`SELECT stxname AS name FROM pg_statistic_ext WHERE stxrelid = 'leads'::regclass ORDER BY 1`)).rows.map((r) => r.name);
  /** The plan of a count on the condition as leads/filters.ts writes it, its key and pattern bound, sequential scans off. */
  const plan = async (key: string, pattern: string) =>
    db().tx(async (q) => {
      await q.exec('SET LOCAL enable_seqscan = off');
      const { rows } = await q.query<{ 'QUERY PLAN': string }>('EXPLAIN SELECT count(*) FROM leads l WHERE (l.data->>$1)::text ILIKE $2', [key, pattern]);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  /** The btree indexes that a tab's landing and status lead. */
  const tabIndexes = ['leads_list_idx', 'leads_department_idx'];
  /**
   * The plan of a tab's count as leads/filters.ts writes it, its values bound, in a transaction
   * rolled back that hides the btree indexes the tab leads (the planner reads the test's few leads
   * whole or by them; at scale, docs/performance.md): what the search index alone finds of the conditions.
   */
  const tabPlan = (landingId: number, key: string, pattern: string) =>
    planWithout(tabIndexes, 'SELECT count(*) FROM leads l WHERE l.landing_id = $1::int AND l.entry_status = $2 AND (l.data->>$3)::text ILIKE $4', [
      landingId,
      'new',
      key,
      pattern,
    ]);
  /** The plan of `sql` with bitmap scans only, in a transaction rolled back that drops the `hidden` indexes. */
  const planWithout = async (hidden: string[], sql: string, params: unknown[]) => {
    const rollback = new Error('rollback');
    let lines: string[] = [];
    await db()
      .tx(async (q) => {
        await q.exec(`SET LOCAL enable_seqscan = off; SET LOCAL enable_indexscan = off; ${hidden.map((name) => `DROP INDEX IF EXISTS ${name};`).join(' ')}`);
        const { rows } = await q.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
        lines = rows.map((r) => r['QUERY PLAN']);
        throw rollback;
      })
      .catch((err: unknown) => {
        if (err !== rollback) throw err;
      });
    return lines.join('\n');
  };

  it("keeps one trigram index per text column of the landings, used by a 'contains' filter, and drops those no landing needs", async () => {
    const usage = "nom d'usage";
    const a = await createLanding(db(), { columns: [...formColumns, { key: usage, label: "Nom d'usage", type: 'text', required: false }] });
    const b = await createLanding(db(), { columns: [...formColumns, { key: 'ville', label: 'Ville', type: 'text', required: false }] });
    await insertLeads(db(), a.id, [{ nom: 'Martin', extra: { [usage]: "L'Hermite" } }, { nom: 'Marchand' }, { nom: 'Dupont', extra: { [usage]: 'Marais' } }]);
    await insertLeads(db(), b.id, [{ nom: 'Lemarié', extra: { ville: 'Marseille' } }]);

    // The server's own run at its start may have come first: what matters is what is there after.
    await syncSearchIndexes(db());
    const names = ['nom', 'prenom', usage, 'ville'].map(searchIndexName);
    expect(searchIndexName(usage)).toMatch(/^leads_search_h[0-9a-f]{16}$/);
    const built = await indexes();
    expect(built.map((i) => i.name)).toEqual([...names].sort());
    expect(built.every((i) => i.valid)).toBe(true);
    // Beside each index, the statistics of its values, which the planner reads for a page's plan.
    expect(await statistics()).toEqual([...names].sort());
    expect(built.find((i) => i.name === searchIndexName(usage))!.def).toContain(
      "gin (landing_id, entry_status, ((data ->> 'nom d''usage'::text)) gin_trgm_ops) WITH (gin_pending_list_limit='16384') WHERE ((data ->> 'nom d''usage'::text) IS NOT NULL)",
    );

    expect(await plan('nom', '%mar%')).toContain(`Bitmap Index Scan on ${searchIndexName('nom')}`);
    expect(await plan(usage, '%mar%')).toContain(`Bitmap Index Scan on ${searchIndexName(usage)}`);
    const count = async (query: string) =>
      (await json<LeadCountResponse>(await server.request('GET', `/api/landings/data/${a.id},${b.id}/count?${query}`, { token }))).total;
    expect(await count('filter[nom]=MAR')).toBe(3);
    expect(await count(`filter[${encodeURIComponent(usage)}]=mar`)).toBe(1);
    expect(await count('filter[ville]=mar')).toBe(1);

    // The landing and the status are in the index: a tab's leads are found in it alone.
    for (const [landing, key] of [
      [a.id, 'nom'],
      [b.id, 'ville'],
    ] as const) {
      const found = await tabPlan(landing, key, '%mar%');
      expect(found).toContain(`Bitmap Index Scan on ${searchIndexName(key)}`);
      expect(found).toContain(`Index Cond: ((landing_id = ${landing}) AND (entry_status = 'new'::text) AND ((data ->> '${key}'::text) ~~* '%mar%'::text))`);
    }

    // Nothing to do a second time; a build cut short (an invalid index) is built again.
    expect(await syncSearchIndexes(db())).toEqual({ created: [], dropped: [] });
    // One built without the longer pending list (an older version) gets it, in place.
    await db().exec(`ALTER INDEX "${searchIndexName('nom')}" RESET (gin_pending_list_limit)`);
    expect(await syncSearchIndexes(db())).toEqual({ created: [], dropped: [] });
    expect((await indexes()).find((i) => i.name === searchIndexName('nom'))!.def).toContain("WITH (gin_pending_list_limit='16384')");
    await db().query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = $1::regclass`, [searchIndexName('ville')]);
    expect(await syncSearchIndexes(db())).toEqual({ created: [searchIndexName('ville')], dropped: [] });
    // So is one of an older shape (the value alone, before the landing and the status led it).
    await db().exec(`DROP INDEX "${searchIndexName('ville')}"`);
    await db().exec(`CREATE INDEX "${searchIndexName('ville')}" ON leads USING gin ((data ->> 'ville') gin_trgm_ops) WHERE (data ->> 'ville') IS NOT NULL`);
    expect(await syncSearchIndexes(db())).toEqual({ created: [searchIndexName('ville')], dropped: [] });
    expect((await indexes()).find((i) => i.name === searchIndexName('ville'))!.def).toContain('gin (landing_id, entry_status, ');

    // The last landing with a 'ville' column loses it: its index goes.
    await db().query('UPDATE landings SET columns = $2 WHERE id = $1', [b.id, JSON.stringify(formColumns)]);
    expect(await syncSearchIndexes(db())).toEqual({ created: [], dropped: [searchIndexName('ville')] });
    expect((await indexes()).map((i) => i.name)).toEqual(names.filter((n) => n !== searchIndexName('ville')).sort());
    expect(await statistics()).toEqual(names.filter((n) => n !== searchIndexName('ville')).sort());
    expect(await count('filter[nom]=mar')).toBe(3);
  });

  it.skipIf(!postgres)(
    "finds a phone's, an email's or a postal code's leads through lead_persons' trigram indexes, counting as the filter alone does",
    async () => {
      const a = await createLanding(db(), { columns: formColumns });
      const b = await createLanding(db(), {
        columns: [
          ...formColumns,
          { key: 'portable', label: 'Portable', type: 'phone', required: false },
          { key: 'cp_chantier', label: 'CP du chantier', type: 'postal_code', required: false },
        ],
      });
      await insertLeads(db(), a.id, [
        { telephone: '0612345678', email: 'jean.martin@exemple.fr', code_postal: '13008' },
        { telephone: '0612999999', email: 'marie.martin@exemple.fr', code_postal: '13100', status: 'archived' },
        { telephone: '0799123456', email: 'paul.durand@exemple.fr', code_postal: '01300' },
      ]);
      await insertLeads(db(), b.id, [
        { telephone: '0799000000', email: 'luc.martin@exemple.fr', code_postal: '75011', extra: { portable: '0612000000', cp_chantier: '13090' } },
        { telephone: '0612111111', email: 'eve@exemple.fr', code_postal: '13001' },
      ]);
      await syncSearchIndexes(db());
      const { rows: defs } = await db().query<{ def: string }>(
        `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'lead_persons'::regclass AND i.indisvalid AND c.relname LIKE '%\\_trgm' ORDER BY 1`,
      );
      expect(defs.map((d) => d.def.replace(/^.* USING /, ''))).toEqual([
        'gin (landing_id, email gin_trgm_ops) WHERE (email IS NOT NULL)',
        'gin (landing_id, phone gin_trgm_ops) WHERE (phone IS NOT NULL)',
        'gin (landing_id, postal_code gin_trgm_ops) WHERE (postal_code IS NOT NULL)',
      ]);

      // The count as the list writes it, without the btree indexes that read the test's few leads whole.
      const countPlan = async (landingIds: number[], contains: Record<string, string>) => {
        const landings = await getLandings(db(), landingIds);
        const params = new Params();
        const where = [...leadConditions(landings, 'new', { contains }, params), ...personPaths(db(), landings, { contains }, params).map((p) => p.sql)];
        const hidden = [...tabIndexes, 'lead_persons_phone_idx', 'lead_persons_email_idx', 'lead_persons_postal_code_idx'];
        return planWithout(hidden, `SELECT count(*) FROM leads l WHERE ${where.join(' AND ')}`, params.values);
      };
      expect(await countPlan([a.id], { telephone: '0612' })).toContain('Bitmap Index Scan on lead_persons_phone_trgm');
      expect(await countPlan([a.id], { email: 'martin' })).toContain('Bitmap Index Scan on lead_persons_email_trgm');
      expect(await countPlan([a.id], { code_postal: '130' })).toContain('Bitmap Index Scan on lead_persons_postal_code_trgm');
      // Landing b's person is its first phone and postal code, which its 'portable' and 'cp_chantier' columns are not.
      expect(await countPlan([a.id, b.id], { telephone: '0612' })).not.toContain('lead_persons');
      expect(await countPlan([a.id, b.id], { code_postal: '130' })).not.toContain('lead_persons');

      const count = async (ids: number[], query: string) =>
        (await json<LeadCountResponse>(await server.request('GET', `/api/landings/data/${ids.join(',')}/count?${query}`, { token }))).total;
      const page = async (ids: number[], query: string) =>
        (
          await json<{ data: { telephone: string }[] }>(await server.request('GET', `/api/landings/data/${ids.join(',')}?entry_status=new&${query}`, { token }))
        ).data
          .map((l) => l.telephone)
          .sort();
      expect(await count([a.id], 'filter[telephone]=0612')).toBe(1);
      expect(await page([a.id], 'filter[telephone]=0612')).toEqual(['0612345678']);
      expect(await count([a.id], 'filter[email]=MARTIN')).toBe(1);
      expect(await count([a.id], 'filter[telephone]=0612345678&filter[email]=jean')).toBe(1);
      expect(await count([a.id], 'filter[telephone]=06')).toBe(1);
      expect(await count([a.id, b.id], 'filter[telephone]=0612')).toBe(2);
      expect(await page([a.id, b.id], 'filter[telephone]=0612')).toEqual(['0612111111', '0612345678']);
      expect(await count([b.id], 'filter[portable]=0612')).toBe(1);
      expect(await count([a.id, b.id], 'filter[email]=martin')).toBe(2);
      expect(await count([a.id], 'filter[code_postal]=130')).toBe(2);
      expect(await count([a.id], `filter[code_postal]=${encodeURIComponent('13 008')}`)).toBe(1);
      expect(await count([a.id, b.id], 'filter[code_postal]=130')).toBe(3);
      expect(await count([b.id], 'filter[cp_chantier]=130')).toBe(1);
      // Each lead's postal code is its landing's, as the insert trigger read it.
      const { rows: persons } = await db().query<{ postal_code: string }>(
        'SELECT postal_code FROM lead_persons WHERE landing_id = ANY($1::int[]) ORDER BY lead_id',
        [[a.id, b.id]],
      );
      expect(persons.map((p) => p.postal_code)).toEqual(['13008', '13100', '01300', '75011', '13001']);
    },
  );

  it.skipIf(!postgres)("keeps leads_department_idx, from which a page reads a department's leads of a tab in creation order", async () => {
    const a = await createLanding(db(), { columns: formColumns });
    const ids = await insertLeads(
      db(),
      a.id,
      Array.from({ length: 6 }, (_, i) => ({
        code_postal: i % 2 ? '48000' : '13008',
        source: i % 3 ? 'google' : 'internal',
        created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
      })),
    );
    await syncSearchIndexes(db());
    const definition = async () =>
      (
        await db().query<{ def: string; valid: boolean }>(
          `SELECT pg_get_indexdef(i.indexrelid) AS def, i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = 'leads_department_idx'::regclass`,
        )
      ).rows[0];
    expect(await definition()).toEqual({
      def: expect.stringContaining('btree (landing_id, entry_status, departement, created_at DESC, id DESC) INCLUDE (zone_climatique, source)'),
      valid: true,
    });
    // A build cut short is built again.
    await db().query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'leads_department_idx'::regclass`);
    expect(await syncSearchIndexes(db())).toEqual({ created: ['leads_department_idx'], dropped: [] });
    expect(await definition()).toMatchObject({ valid: true });

    const plan = await planWithout(
      ['leads_list_idx'],
      'SELECT l.id FROM leads l WHERE l.landing_id = $1::int AND l.entry_status = $2 AND l.departement = ANY($3::text[]) ORDER BY l.created_at DESC, l.id DESC',
      [a.id, 'new', ['48']],
    );
    expect(plan).toContain('leads_department_idx');
    const page = async (query: string) =>
      (await json<{ data: { id: number }[] }>(await server.request('GET', `/api/landings/data/${a.id}?entry_status=new&${query}`, { token }))).data.map(
        (l) => l.id,
      );
    expect(await page('in[departement]=48')).toEqual([ids[5], ids[3], ids[1]]);
    expect(await page('in[departement]=48&in[source]=internal')).toEqual([ids[3]]);
    expect(await page('in[departement]=48&in[departement]=13&_limit=2')).toEqual([ids[5], ids[4]]);
  });

  it('is the maintenance job search-indexes, every ten minutes and at start', async () => {
    const { rows } = await db().query('SELECT cron, timezone FROM pgboss.schedule WHERE name = $1', [SEARCH_INDEXES_JOB.name]);
    expect(rows).toEqual([{ cron: '*/10 * * * *', timezone: 'Europe/Paris' }]);
    await createLanding(db(), { columns: [...formColumns, { key: 'remarque', label: 'Remarque', type: 'text', required: false }] });
    await server.runJob(SEARCH_INDEXES_JOB);
    expect((await indexes()).find((i) => i.name === searchIndexName('remarque'))).toMatchObject({ valid: true });
  });
});
