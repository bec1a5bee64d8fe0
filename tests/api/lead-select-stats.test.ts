import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadCountResponse } from '../../src/api/leads/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, formColumns, insertLeads, json } from './leads-support';
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
    expect((await db().query('SELECT 1 FROM lead_select_stats WHERE landing_id = $1', [a.id])).rowCount).toBe(0);
    expect(await count(a.id, 'in[chauffage]=Électrique')).toBe(1);
    await db().query('UPDATE landings SET columns = $2 WHERE id = $1', [a.id, JSON.stringify(formColumns)]);
    expect(await selectStatsDrift(db())).toEqual([]);

    // Deleting a landing takes its counts with its leads.
    await db().query('DELETE FROM landings WHERE id = $1', [b.id]);
    expect((await db().query('SELECT 1 FROM lead_select_stats WHERE landing_id = $1', [b.id])).rowCount).toBe(0);
    expect(await selectStatsDrift(db())).toEqual([]);
  });
});
