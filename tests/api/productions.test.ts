import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';

let server: TestServer;
let token: string;
let staff: string;
let pac: { id: number };
let pac2: { id: number };
let pv: { id: number };

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  staff = await normalUserToken(server);
  pac = await createLanding(server.ctx.db, { category: 'pac' });
  pac2 = await createLanding(server.ctx.db, { category: 'pac' });
  pv = await createLanding(server.ctx.db, { category: 'pv' });
  const at = '2025-06-10T10:00:00Z';
  await insertLeads(server.ctx.db, pac.id, [
    { code_postal: '30000', source: 'taboola', created_at: at },
    { code_postal: '30000', source: 'facebook', created_at: at, status: 'extracted' },
    { code_postal: '34000', source: 'taboola', created_at: at, status: 'converted' },
    { code_postal: '20000', source: 'google', created_at: at },
    { code_postal: '97200', source: 'sms', created_at: at },
    { source: 'autre', created_at: at },
    // Edge days of the range (read from the leads, not the monthly counts), in Paris time.
    { code_postal: '30000', source: 'email', created_at: '2025-03-14T23:30:00Z' },
    { code_postal: '30000', source: 'email', created_at: '2025-03-14T22:30:00Z' },
    { code_postal: '13001', source: 'outbrain', created_at: '2025-07-20T12:00:00Z' },
  ]);
  await insertLeads(server.ctx.db, pac2.id, [{ code_postal: '30000', source: 'internal', created_at: at }]);
  await insertLeads(server.ctx.db, pv.id, [{ code_postal: '30000', source: 'taboola', created_at: at }]);
});
afterAll(() => server.close());

const get = (path: string, as = token) => server.request('GET', path, { token: as });
const post = (path: string, body?: unknown, as = token) => server.request('POST', path, { token: as, body });
const regions = (category: string, query: string) => post(`/api/productions/${category}/regions/data?${query}`);
const auditRows = async (action: string) =>
  (
    await server.ctx.db.query<{ user_id: number; count: number; details: Record<string, unknown> }>(
      'SELECT user_id, count, details FROM audit_log WHERE action = $1 ORDER BY id',
      [action],
    )
  ).rows;

interface RegionsBody {
  data: { sources: Array<{ key: string; value: number }>; stats: Array<{ key: string; value: number }>; departments: Array<{ region: string; value: number }> };
}
const asObject = (rows: Array<{ key: string; value: number }>) => Object.fromEntries(rows.map((r) => [r.key, r.value]));

describe('GET /api/productions/:category', () => {
  it('answers Gard and Hérault before anything was saved, with the notes of that category only', async () => {
    await server.ctx.db.query(`INSERT INTO department_notes (category, departement, text) VALUES ('pv', '84', 'Soleil')`);
    const res = await get('/api/productions/pac');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { regions: [], selected: ['FR-30', 'FR-34'] } });
    expect((await json<{ data: { regions: unknown[] } }>(await get('/api/productions/pv'))).data.regions).toEqual([
      { region: 'FR-84', text: 'Soleil', color: null },
    ]);
  });

  it('answers 404 to an unknown category and 401 without a token', async () => {
    for (const category of ['xyz', 'PAC', 'pac%20', '1']) {
      const res = await get(`/api/productions/${category}`);
      expect(res.status).toBe(404);
      expect(await json(res)).toEqual({ error: 'not_found', message: 'Catégorie de production inconnue' });
    }
    expect((await server.request('GET', '/api/productions/pac')).status).toBe(401);
  });
});

describe('POST /api/productions/:category/regions/data', () => {
  it('counts per source and status over the chosen departments, and every department for the choropleth', async () => {
    const res = await regions('pac', `date_range=2025-03-15<>2025-07-20&landings=${pac.id},${pac2.id}&departement=FR-30,FR-34`);
    expect(res.status).toBe(200);
    const { data } = await json<RegionsBody>(res);
    // 30: taboola, facebook (extracted), internal (pac2), one email lead of 15 March in Paris; 34: taboola (converted).
    expect(asObject(data.sources)).toEqual({ taboola: 2, facebook: 1, google: 0, sms: 0, email: 1, outbrain: 0, internal: 1, autre: 0 });
    expect(data.sources.map((s) => s.key)).toEqual(['taboola', 'facebook', 'google', 'sms', 'email', 'outbrain', 'internal', 'autre']);
    expect(asObject(data.stats)).toEqual({ total: 5, new: 3, extracted: 1, archived: 0, trashed: 0, converted: 1, duplicate: 0, per_day: 0 });
    // The map: every department with leads, whichever are chosen; leads without a department are left out.
    expect(data.departments).toEqual([
      { region: 'FR-13', value: 1 },
      { region: 'FR-2A', value: 1 },
      { region: 'FR-30', value: 4 },
      { region: 'FR-34', value: 1 },
      { region: 'FR-972', value: 1 },
    ]);
  });

  it('counts every lead of the category without departement, and the average per day', async () => {
    const { data } = await json<RegionsBody>(await regions('pac', `date_range=2025-06-10<>2025-06-10&landings=${pac.id}`));
    expect(asObject(data.stats)).toMatchObject({ total: 6, new: 4, per_day: 6 });
    expect(asObject(data.sources)).toMatchObject({ taboola: 2, autre: 1, sms: 1 });
    const empty = await json<RegionsBody>(await regions('pac', `date_range=2025-06-10<>2025-06-10&landings=${pac.id}&departement=`));
    expect(asObject(empty.data.stats).total).toBe(0);
  });

  it('refuses a query without landing (422), a landing of another category (422), an unknown one (404)', async () => {
    for (const query of [
      'date_range=2025-01-01<>2025-12-31',
      'date_range=2025-01-01<>2025-12-31&landings=',
      'date_range=2025-01-01<>2025-12-31&landings=a,b',
    ]) {
      const res = await regions('pac', query);
      expect(res.status).toBe(422);
      expect(await json(res)).toMatchObject({ error: 'validation_failed', status: false, errors: { landings: 'Choisissez au moins une landing' } });
    }
    const other = await regions('pac', `date_range=2025-01-01<>2025-12-31&landings=${pv.id}`);
    expect(other.status).toBe(422);
    expect((await json<{ message: string }>(other)).message).toMatch(/n'est pas de cette catégorie/);
    expect((await regions('pac', 'date_range=2025-01-01<>2025-12-31&landings=999999')).status).toBe(404);
    expect((await regions('pac', 'date_range=2025-01-01<>2025-12-31&landings=2147483648')).status).toBe(404);
  });

  it('refuses bad periods and departments, and an unknown category', async () => {
    const bad = async (query: string, field: string) => {
      const res = await regions('pac', query);
      expect(res.status, query).toBe(422);
      expect(Object.keys((await json<{ errors: Record<string, string> }>(res)).errors)).toContain(field);
    };
    await bad(`landings=${pac.id}`, 'date_range');
    await bad(`date_range=2025-01-01&landings=${pac.id}`, 'date_range');
    await bad(`date_range=2025-02-30<>2025-03-01&landings=${pac.id}`, 'date_range.0');
    await bad(`date_range=2025-12-31<>2025-01-01&landings=${pac.id}`, 'date_range');
    await bad(`date_range=2025-01-01<>2025-12-31&landings=${pac.id}&departement=30`, 'departement.0');
    await bad(`date_range=2025-01-01<>2025-12-31&landings=${pac.id}&departement=FR-30&departement=FR-34`, 'departement');
    const unknown = await regions('pac', `date_range=2025-01-01<>2025-12-31&landings=${pac.id}&departement=FR-20`);
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ error: 'not_found', message: 'Département inconnu : FR-20' });
    expect((await regions('pac', `date_range=2025-01-01<>2025-12-31&landings=${pac.id}&departement=FR-975`)).status).toBe(404);
    expect((await regions('autre', `date_range=2025-01-01<>2025-12-31&landings=${pac.id}`)).status).toBe(404);
    expect((await regions('pac', `date_range='; DROP TABLE leads; --&landings=${pac.id}`)).status).toBe(422);
  });
});

describe('POST /api/productions/:category/change_color', () => {
  it('saves the selection and its colour for everybody, and writes the audit log', async () => {
    const res = await post('/api/productions/pac/change_color?departement=FR-13,FR-2A&color=%23AA00FF', undefined, staff);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { selected: ['FR-13', 'FR-2A'], color: '#aa00ff' }, message: 'Couleur attribuée' });
    const seen = await json<{ data: { regions: unknown[]; selected: string[] } }>(await get('/api/productions/pac'));
    expect(seen.data.selected).toEqual(['FR-13', 'FR-2A']);
    expect(seen.data.regions).toEqual([
      { region: 'FR-13', text: '', color: '#aa00ff' },
      { region: 'FR-2A', text: '', color: '#aa00ff' },
    ]);
    // Without a colour the selection takes the default one; an empty selection is saved as such.
    await post('/api/productions/pac/change_color?departement=FR-13');
    expect((await json<{ data: { regions: Array<{ color: string }> } }>(await get('/api/productions/pac'))).data.regions[0].color).toBe('#d97706');
    await post('/api/productions/pac/change_color?departement=FR-2A&color=none');
    expect((await json<{ data: { regions: unknown[] } }>(await get('/api/productions/pac'))).data.regions).toEqual([
      { region: 'FR-13', text: '', color: '#d97706' },
    ]);
    await post('/api/productions/pac/change_color?departement=');
    expect((await json<{ data: { selected: string[] } }>(await get('/api/productions/pac'))).data.selected).toEqual([]);
    const rows = await auditRows('production.color');
    expect(rows[0]).toMatchObject({ count: 2, details: { category: 'pac', departements: ['13', '2A'], color: '#aa00ff' } });
    expect(rows).toHaveLength(4);
  });

  it('with color=keep saves the selection and leaves every colour as it was (looking is not colouring)', async () => {
    await post('/api/productions/pv/change_color?departement=FR-13&color=%23dc2626');
    await post('/api/productions/pv/change_color?departement=FR-84&color=none');
    const res = await post('/api/productions/pv/change_color?departement=FR-13,FR-84,FR-2B&color=keep', undefined, staff);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { selected: ['FR-13', 'FR-84', 'FR-2B'] }, message: 'Sélection enregistrée' });
    const seen = await json<{ data: { regions: unknown[]; selected: string[] } }>(await get('/api/productions/pv'));
    expect(seen.data.selected).toEqual(['FR-13', 'FR-84', 'FR-2B']);
    expect(seen.data.regions).toEqual([
      { region: 'FR-13', text: '', color: '#dc2626' },
      { region: 'FR-84', text: 'Soleil', color: null },
    ]);
    expect((await auditRows('production.selection'))[0]).toMatchObject({ count: 3, details: { category: 'pv', departements: ['13', '84', '2B'] } });
  });

  it('refuses an unknown department (404, nothing saved), a bad colour (422), an unknown category (404)', async () => {
    const before = await json(await get('/api/productions/pv'));
    const res = await post('/api/productions/pv/change_color?departement=FR-30,FR-99');
    expect(res.status).toBe(404);
    expect(await json(await get('/api/productions/pv'))).toEqual(before);
    const color = await post('/api/productions/pv/change_color?departement=FR-30&color=red');
    expect(color.status).toBe(422);
    expect(await json(color)).toMatchObject({ errors: { color: 'Couleur invalide (#rrggbb, none ou keep)' } });
    expect((await post('/api/productions/nope/change_color?departement=FR-30')).status).toBe(404);
  });
});

describe('POST /api/productions/:category/:departement/change_text', () => {
  it('saves a note from the query or the body, HTML stored as typed, and writes the audit log', async () => {
    let res = await post('/api/productions/other/FR-30/change_text?text=Rappeler%20demain');
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { region: 'FR-30', text: 'Rappeler demain', color: null }, message: 'Notes enregistrées' });
    const html = `<img src=x onerror="alert(1)"><b>gras</b> & 'quotes' ; DROP TABLE leads; --`;
    res = await post('/api/productions/other/FR-2B/change_text', { text: html }, staff);
    expect(res.status).toBe(200);
    const regionsSeen = (await json<{ data: { regions: Array<{ region: string; text: string }> } }>(await get('/api/productions/other'))).data.regions;
    expect(regionsSeen.find((r) => r.region === 'FR-2B')!.text).toBe(html);
    expect((await auditRows('production.note')).at(-1)).toMatchObject({ count: 1, details: { category: 'other', departement: '2B', length: html.length } });
    // A note of exactly 10,000 characters is kept; an empty one clears it.
    expect((await post('/api/productions/other/FR-976/change_text', { text: 'é'.repeat(10_000) })).status).toBe(200);
    expect((await post('/api/productions/other/FR-30/change_text', { text: '' })).status).toBe(200);
    expect((await json<{ data: { regions: Array<{ region: string }> } }>(await get('/api/productions/other'))).data.regions.map((r) => r.region)).toEqual([
      'FR-2B',
      'FR-976',
    ]);
  });

  it('refuses a note over 10,000 characters (422, French), unknown departments and categories (404), a missing text (422)', async () => {
    const long = await post('/api/productions/pac/FR-30/change_text', { text: 'x'.repeat(10_001) });
    expect(long.status).toBe(422);
    expect(await json(long)).toMatchObject({ error: 'validation_failed', errors: { text: 'La note dépasse 10 000 caractères' } });
    for (const dep of ['FR-20', 'FR-975', '30', 'fr-30', 'FR-2a', '..']) {
      const res = await post(`/api/productions/pac/${dep}/change_text`, { text: 'x' });
      expect(res.status, dep).toBe(404);
    }
    // A NUL anywhere in a request is refused before any route looks at it (issue 15 item 21).
    expect((await post('/api/productions/pac/FR-30%00/change_text', { text: 'x' })).status).toBe(422);
    expect((await post('/api/productions/PV/FR-30/change_text', { text: 'x' })).status).toBe(404);
    expect((await post('/api/productions/pac/FR-30/change_text', {})).status).toBe(422);
    expect((await post('/api/productions/pac/FR-30/change_text', { text: 42 })).status).toBe(422);
    expect((await post('/api/productions/pac/FR-30/change_text', [1, 2])).status).toBe(422);
    expect((await post('/api/productions/pac/FR-30/change_text', '"x"')).status).toBe(422);
    const notes = await server.ctx.db.query(`SELECT 1 FROM department_notes WHERE category = 'pac' AND text <> ''`);
    expect(notes.rows).toHaveLength(0);
  });
});
