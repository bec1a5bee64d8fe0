import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadListResponse } from '../../src/api/leads/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, postIntake } from './leads-support';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const db = () => server.ctx.db;
const post = (path: string, body: unknown) => server.request('POST', path, { body, token });

/** The persons as their triggers keep them, and as the leads say they should be (the postal code: the landing's 'code_postal'). */
async function persons() {
  const kept = await db().query('SELECT lead_id::int AS id, landing_id, created_at, phone, email, postal_code FROM lead_persons ORDER BY lead_id');
  const expected = await db().query(
    `SELECT id::int, landing_id, created_at, phone, email, data ->> 'code_postal' AS postal_code FROM leads
      WHERE phone IS NOT NULL OR email IS NOT NULL OR data ? 'code_postal' ORDER BY id`,
  );
  return { kept: kept.rows, expected: expected.rows };
}

describe("a lead's person", () => {
  it('follows every way a lead is stored, changed and removed', async () => {
    const a = await createLanding(db());
    const b = await createLanding(db());
    const direct = await insertLeads(db(), a.id, [{ telephone: '0611000001' }, { email: 'direct@x.fr' }, {}, { code_postal: '69001' }]);
    expect((await postIntake(server, a.key, { nom: 'Intake', telephone: '06 11 00 00 02', code_postal: '75001', email: 'Intake@X.fr' })).status).toBe(201);
    const imported = await post(`/api/landings/${a.id}/import/excel`, {
      form_import_from: 'Partenaire',
      data: [
        { nom: 'Import', telephone: '0611000003', code_postal: '30000' },
        { nom: 'Import bis', telephone: '0611000004', email: 'bis@x.fr', code_postal: '30000' },
      ],
    });
    expect(imported.status).toBe(200);
    expect((await post('/api/landings/convert/leads', { landing: b.id, leads: direct.slice(0, 2) })).status).toBe(200);
    expect((await post('/api/landings/data', { entry_status: 'archived', leads: direct })).status).toBe(200);
    expect((await server.request('DELETE', '/api/landings/data', { body: { leads: [direct[2]] }, token })).status).toBe(200);
    // No path of the product changes a stored lead's phone; the person follows if one ever does.
    await db().query("UPDATE leads SET phone = '0611000099', email = NULL WHERE id = $1", [direct[1]]);
    await db().query('UPDATE leads SET phone = NULL WHERE id = $1', [direct[0]]);
    await db().query(`UPDATE leads SET data = data || '{"code_postal": "13001"}' WHERE id = $1`, [direct[3]]);

    const { kept, expected } = await persons();
    expect(kept).toEqual(expected);
    expect(kept.filter((p) => p.landing_id === b.id)).toHaveLength(2);
    expect(kept.find((p) => p.id === direct[1])).toMatchObject({ phone: '0611000099', email: null });
    expect(kept.some((p) => p.id === direct[0])).toBe(false);
    expect(kept.find((p) => p.id === direct[3])).toMatchObject({ phone: null, email: null, postal_code: '13001' });
    expect(kept.filter((p) => p.postal_code === '30000')).toHaveLength(2);
  });

  it('names the lead a duplicate repeats whatever its status, and no longer once it is deleted', async () => {
    const landing = await createLanding(db());
    const send = (nom: string) => postIntake(server, landing.key, { nom, telephone: '0622000001', code_postal: '75001' });
    const first = await json<{ data: { id: number; entry_status: string } }>(await send('Premier'));
    const second = await json<{ data: { id: number; entry_status: string } }>(await send('Second'));
    expect([first.data.entry_status, second.data.entry_status]).toEqual(['new', 'duplicate']);
    await post('/api/landings/data', { entry_status: 'archived', leads: [first.data.id] });
    const duplicates = async () =>
      (await json<LeadListResponse>(await server.request('GET', `/api/landings/data/${landing.id}?entry_status=duplicate`, { token }))).data.map(
        (r) => r.duplicate_of,
      );
    expect(await duplicates()).toEqual([{ id: first.data.id, entry_status: 'archived' }]);

    await server.request('DELETE', '/api/landings/data', { body: { leads: [first.data.id] }, token });
    expect(await duplicates()).toEqual([null]);
    await server.request('DELETE', '/api/landings/data', { body: { leads: [second.data.id] }, token });
    const third = await json<{ data: { entry_status: string } }>(await send('Troisième'));
    expect(third.data.entry_status).toBe('new');
  });
});
