import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadCountResponse } from '../../src/api/leads/contract';
import { Params } from '../../server/db/params';
import { countingStats } from '../../server/services/leads/counting-stats';
import { leadConditions } from '../../server/services/leads/filters';
import { getLanding } from '../../server/services/leads/landings';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, formColumns, insertLeads, json, postIntake } from './leads-support';
import { selectStatsDrift } from '../support/reconcile';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const db = () => server.ctx.db;
const post = (path: string, body: unknown) => server.request('POST', path, { body, token });
const count = async (landing: number, query: string) =>
  (await json<LeadCountResponse>(await server.request('GET', `/api/landings/data/${landing}/count?${query}`, { token }))).total;

describe("a select column's monthly counts", () => {
  it('follow every way a lead is stored, changed and removed, and count as the leads do', async () => {
    const a = await createLanding(db());
    const b = await createLanding(db());
    const direct = await insertLeads(db(), a.id, [
      { extra: { chauffage: 'Gaz' } },
      { extra: { chauffage: 'Fioul' }, created_at: '2025-01-15T10:00:00Z' },
      { extra: { chauffage: 'Gaz' } },
      {},
    ]);
    const intake = await server.request('POST', `/api/intake/${a.key}`, {
      body: { nom: 'Intake', telephone: '0633000001', code_postal: '75001', chauffage: 'gaz' },
      headers: { origin: 'https://lp.example.com', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(intake.status).toBe(201);
    const imported = await post(`/api/landings/${a.id}/import/excel`, {
      form_import_from: 'Partenaire',
      data: [
        { nom: 'Import', telephone: '0633000002', code_postal: '30000', chauffage: 'Électrique' },
        { nom: 'Import bis', telephone: '0633000003', code_postal: '30000', chauffage: 'Fioul' },
      ],
    });
    expect(imported.status).toBe(200);
    expect(await count(a.id, 'in[chauffage]=Gaz')).toBe(3);
    expect(await selectStatsDrift(db())).toEqual([]);

    const change = await json<{ data: { action_id: number } }>(await post('/api/landings/data', { entry_status: 'archived', leads: direct.slice(0, 2) }));
    expect(await count(a.id, 'in[chauffage]=Gaz&entry_status=archived')).toBe(1);
    expect((await post(`/api/landings/data/undo/${change.data.action_id}`, {})).status).toBe(200);
    expect((await post('/api/landings/convert/leads', { landing: b.id, leads: [direct[2]] })).status).toBe(200);
    expect((await post(`/api/landings/data/${a.id}/export`, { bookType: 'csv', leads: [direct[1]] })).status).toBe(200);
    expect((await server.request('DELETE', '/api/landings/data', { body: { leads: [direct[0]] }, token })).status).toBe(200);
    expect(await selectStatsDrift(db())).toEqual([]);
    expect(await count(a.id, 'in[chauffage]=Gaz')).toBe(1);
    expect(await count(b.id, 'in[chauffage]=Gaz')).toBe(1);
    expect(await count(a.id, 'in[chauffage]=Fioul&entry_status=extracted')).toBe(1);
    expect(await count(a.id, `in[chauffage]=Fioul&date[created_at]=${encodeURIComponent('2025-01-01<>2025-01-31')}&entry_status=extracted`)).toBe(1);

    // A landing whose select column loses its options is no longer counted; its filter reads the leads.
    const noOptions = formColumns.map((c) => (c.key === 'chauffage' ? { ...c, options: [] } : c));
    await db().query('UPDATE landings SET columns = $2 WHERE id = $1', [a.id, JSON.stringify(noOptions)]);
    expect((await db().query("SELECT 1 FROM lead_select_stats WHERE landing_id = $1 AND key = 'chauffage'", [a.id])).rowCount).toBe(0);
    expect(await count(a.id, 'in[chauffage]=Électrique')).toBe(1);
    await db().query('UPDATE landings SET columns = $2 WHERE id = $1', [a.id, JSON.stringify(formColumns)]);
    expect(await selectStatsDrift(db())).toEqual([]);

    // Deleting a landing takes its counts with its leads.
    await db().query('DELETE FROM landings WHERE id = $1', [b.id]);
    expect((await db().query('SELECT 1 FROM lead_select_stats WHERE landing_id = $1', [b.id])).rowCount).toBe(0);
    expect(await selectStatsDrift(db())).toEqual([]);
  });
});

describe("the UTM values' and presale pages' monthly counts", () => {
  /** The leads of the landing in the status whose column contains the text, counted in SQL. */
  const counted = async (landing: number, column: string, text: string, status = 'new') =>
    (
      await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM leads WHERE landing_id = $1 AND entry_status = $2 AND ${column} ILIKE '%' || $3 || '%'`, [
        landing,
        status,
        text,
      ])
    ).rows[0]!.n;

  it('follow intake, import, status changes and their undo, moves and deletion, values longer than an index entry included', async () => {
    const a = await createLanding(db());
    const b = await createLanding(db());
    const direct = await insertLeads(db(), a.id, [{ telephone: '0634000001' }, { telephone: '0634000002', created_at: '2025-03-10T10:00:00Z' }, {}]);
    await db().query(`UPDATE leads SET utm_source = 'Google', utm_campaign = 'goo_pac_2025-03', url_presale = 'https://exemple.fr/maison' WHERE id = ANY($1)`, [
      direct.slice(0, 2),
    ]);
    await db().query(`UPDATE leads SET utm_campaign = repeat('é', 4000) WHERE id = $1`, [direct[2]]);
    const form = { nom: 'Intake', telephone: '06 34 00 00 03', code_postal: '75001' };
    const intake = await postIntake(server, a.key, {
      ...form,
      utm_source: 'Facebook',
      utm_medium: 'paid',
      utm_campaign: 'Printemps',
      url_presale: 'https://exemple.fr/Maison-neuve',
    });
    expect(intake.status).toBe(201);
    const imported = await post(`/api/landings/${a.id}/import/excel`, {
      form_import_from: 'Partenaire',
      data: [{ nom: 'Import', telephone: '0634000004', code_postal: '30000', utm_source: 'google', utm_campaign: 'x'.repeat(5000) }],
    });
    expect(imported.status).toBe(200);
    expect(await selectStatsDrift(db())).toEqual([]);

    for (const [column, text] of [
      ['utm_source', 'goo'],
      ['utm_campaign', 'PRINTEMPS'],
      ['utm_campaign', 'éé'],
      ['utm_campaign', 'xxx'],
      ['url_presale', 'maison'],
      ['utm_medium', 'zzqx'],
    ] as const) {
      expect(await count(a.id, `filter[${column}]=${encodeURIComponent(text)}`), `${column} ${text}`).toBe(await counted(a.id, column, text));
    }
    expect(await count(a.id, 'in[utm_source]=Google&in[utm_source]=Facebook')).toBe(3);
    expect(await count(a.id, `filter[url_presale]=maison&date[created_at]=${encodeURIComponent('2025-03-01<>2025-03-31')}`)).toBe(1);
    // An empty filter keeps the leads without a value too.
    expect(await count(a.id, 'filter[utm_medium]=')).toBe(5);

    const change = await json<{ data: { action_id: number } }>(await post('/api/landings/data', { entry_status: 'trashed', leads: direct }));
    expect(await count(a.id, 'filter[utm_campaign]=goo&entry_status=trashed')).toBe(2);
    expect(await count(a.id, 'filter[utm_campaign]=goo')).toBe(0);
    expect(await selectStatsDrift(db())).toEqual([]);
    expect((await post(`/api/landings/data/undo/${change.data.action_id}`, {})).status).toBe(200);
    expect(await count(a.id, 'filter[utm_campaign]=goo')).toBe(2);
    expect((await post('/api/landings/convert/leads', { landing: b.id, leads: [direct[0]] })).status).toBe(200);
    await db().query(`UPDATE leads SET url_presale = 'https://exemple.fr/isolation' WHERE id = $1`, [direct[1]]);
    expect((await server.request('DELETE', '/api/landings/data', { body: { leads: [direct[2]] }, token })).status).toBe(200);
    expect(await selectStatsDrift(db())).toEqual([]);
    expect(await count(a.id, 'filter[url_presale]=maison')).toBe(1);
    expect(await count(b.id, 'filter[url_presale]=maison')).toBe(1);
    expect(await count(a.id, 'filter[utm_campaign]=%C3%A9')).toBe(0);
  });

  it('are what an exact count reads, not the leads', async () => {
    const a = await createLanding(db());
    const params = new Params();
    const filters = { contains: { utm_campaign: 'goo' }, values: {}, dates: {} };
    const landing = (await getLanding(db(), a.id))!;
    const where = leadConditions([landing], 'new', filters, params);
    const stats = countingStats([landing], filters, params);
    expect(stats).toMatch(/lead_select_stats/);
    const plan = await db().query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT count(*) FROM ${stats} l WHERE ${where.join(' AND ')}`, params.values);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).not.toMatch(/on leads/);
  });
});
