import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadListResponse } from '../../src/api/leads/contract';
import { copyRows } from '../../server/db/bulk';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';

let server: TestServer;
let token: string;
let landing: { id: number; key: string };

beforeAll(async () => {
  server = await startServer({ IMPORT_BODY_LIMIT_MB: 16 });
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db);
});
afterAll(() => server.close());

const importFile = (body: unknown, id = landing.id, as = token) => server.request('POST', `/api/landings/${id}/import/excel`, { body, token: as });
const count = async (id = landing.id) =>
  (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE landing_id = $1', [id])).rows[0].n;

describe('import', () => {
  it('maps file headers to columns, normalises values, derives department and zone, sets utm_medium', async () => {
    const staff = await normalUserToken(server);
    const res = await importFile(
      {
        form_import_from: 'Salon Nîmes',
        columns: { nom: 'Nom complet', telephone: 'Tél.', code_postal: 'CP', source: 'Origine' },
        data: [
          {
            'Nom complet': 'Import Un',
            'Tél.': '+33 6 12 34 56 78',
            CP: 1400,
            email: ' Un@Exemple.FR ',
            chauffage: 'gaz',
            surface: '95,5',
            date_projet: '15/09/2025',
            Origine: 'Facebook',
          },
          { 'Nom complet': 'Import Deux', 'Tél.': 698765432, CP: '97133', Ignored: 'x' },
        ],
      },
      landing.id,
      staff,
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { inserted: 2, duplicates: 0 }, message: 'Leads importés' });
    const { rows } = await server.ctx.db.query<{
      data: Record<string, unknown>;
      phone: string;
      email: string;
      departement: string;
      zone_climatique: string;
      utm_medium: string;
      source: string;
    }>('SELECT data, phone, email, departement, zone_climatique, utm_medium, source FROM leads WHERE landing_id = $1 ORDER BY id', [landing.id]);
    expect(rows[0]).toEqual({
      data: {
        nom: 'Import Un',
        telephone: '0612345678',
        email: 'un@exemple.fr',
        code_postal: '01400',
        chauffage: 'Gaz',
        surface: 95.5,
        date_projet: '2025-09-15',
      },
      phone: '0612345678',
      email: 'un@exemple.fr',
      departement: '01',
      zone_climatique: 'H1c',
      utm_medium: 'Salon Nîmes',
      source: 'facebook',
    });
    expect(rows[1]).toMatchObject({ phone: '0698765432', departement: '977', zone_climatique: '' });
    const list = await json<LeadListResponse>(await server.request('GET', `/api/landings/data/${landing.id}`, { token }));
    expect(list.import_from).toEqual(['Salon Nîmes']);
  });

  it('flags duplicates against the landing (30 days) and within the file', async () => {
    const other = await createLanding(server.ctx.db);
    await insertLeads(server.ctx.db, other.id, [
      { telephone: '0611111111', email: 'old@x.fr', created_at: new Date(Date.now() - 40 * 86_400_000).toISOString() },
      { telephone: '0622222222', email: 'recent@x.fr', created_at: new Date(Date.now() - 5 * 86_400_000).toISOString() },
    ]);
    const row = (nom: string, tel: string, email: string) => ({ nom, telephone: tel, email, code_postal: '30000' });
    const res = await importFile(
      {
        form_import_from: 'Partenaire',
        data: [
          row('Ancien', '0611111111', 'a@x.fr'),
          row('Récent', '0633333333', 'recent@x.fr'),
          row('Neuf', '0644444444', 'neuf@x.fr'),
          row('Neuf bis', '06 44 44 44 44', 'autre@x.fr'),
        ],
      },
      other.id,
    );
    expect(await json(res)).toEqual({ data: { inserted: 4, duplicates: 2 }, message: 'Leads importés' });
    const { rows } = await server.ctx.db.query<{ nom: string; entry_status: string }>(
      "SELECT data->>'nom' AS nom, entry_status FROM leads WHERE landing_id = $1 AND utm_medium = 'Partenaire' ORDER BY id",
      [other.id],
    );
    expect(rows).toEqual([
      { nom: 'Ancien', entry_status: 'new' },
      { nom: 'Récent', entry_status: 'duplicate' },
      { nom: 'Neuf', entry_status: 'new' },
      { nom: 'Neuf bis', entry_status: 'duplicate' },
    ]);
    // The doublons list names the lead each duplicate repeats.
    const ids = Object.fromEntries(
      (
        await server.ctx.db.query<{ id: number; email: string }>("SELECT id, email FROM leads WHERE landing_id = $1 AND entry_status <> 'duplicate'", [
          other.id,
        ])
      ).rows.map((r) => [r.email, Number(r.id)]),
    );
    const list = await json<LeadListResponse>(await server.request('GET', `/api/landings/data/${other.id}?entry_status=duplicate`, { token }));
    expect(list.data.map((r) => [r.nom, r.duplicate_of])).toEqual([
      ['Neuf bis', { id: ids['neuf@x.fr'], entry_status: 'new' }],
      ['Récent', { id: ids['recent@x.fr'], entry_status: 'new' }],
    ]);
    const fresh = await json<LeadListResponse>(await server.request('GET', `/api/landings/data/${other.id}`, { token }));
    expect(fresh.data.every((r) => !('duplicate_of' in r))).toBe(true);
  });

  it('refuses the whole file when a row is wrong, naming each row and column, and inserts nothing', async () => {
    const before = await count();
    const res = await importFile({
      form_import_from: 'Fichier',
      data: [
        { nom: 'Bon', telephone: '0612345678', code_postal: '30000' },
        { nom: '', telephone: '0612345678', code_postal: '30000' },
        { nom: 'Tel', telephone: '12', code_postal: '30000', email: 'pas-un-email' },
        { nom: 'CP', telephone: '0612345678', code_postal: 'ABCDE', chauffage: 'Charbon', surface: 'grand', date_projet: '2025-02-30' },
        { nom: 'Source', telephone: '0612345678', code_postal: '30000', source: 'tiktok' },
      ],
    });
    expect(res.status).toBe(422);
    const body = await json<{ error: string; message: string; rows: Array<{ row: number; column: string; message: string }> }>(res);
    expect(body.message).toBe("Impossible d'importer votre fichier, veuillez le vérifier.");
    expect(body.rows).toEqual([
      { row: 2, column: 'nom', message: 'Champ obligatoire' },
      { row: 3, column: 'telephone', message: 'Numéro de téléphone invalide' },
      { row: 3, column: 'email', message: 'Adresse email invalide' },
      { row: 4, column: 'code_postal', message: 'Code postal invalide' },
      { row: 4, column: 'chauffage', message: 'Valeur non prévue' },
      { row: 4, column: 'surface', message: 'Nombre invalide' },
      { row: 4, column: 'date_projet', message: 'Date invalide (AAAA-MM-JJ ou JJ/MM/AAAA)' },
      { row: 5, column: 'source', message: expect.stringContaining('Source inconnue') },
    ]);
    expect(await count()).toBe(before);
  });

  it('names missing required columns on every row', async () => {
    const res = await importFile({ form_import_from: 'X', data: [{ nom: 'Sans téléphone', code_postal: '30000' }], columns: { telephone: 'Téléphone' } });
    expect(res.status).toBe(422);
    expect((await json<{ rows: unknown[] }>(res)).rows).toEqual([{ row: 1, column: 'telephone', message: 'Champ obligatoire' }]);
  });

  it('refuses 10 MB cells clearly, and an oversized body with 413', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const res = await importFile({ form_import_from: 'X', data: [{ nom: huge, telephone: '0612345678', code_postal: '30000' }] });
    expect(res.status).toBe(422);
    expect((await json<{ rows: unknown[] }>(res)).rows).toEqual([{ row: 1, column: 'nom', message: 'Valeur trop longue (5000 caractères au plus)' }]);
    const tooBig = await importFile({ form_import_from: 'X', data: [{ nom: 'x'.repeat(17 * 1024 * 1024) }] });
    expect(tooBig.status).toBe(413);
    expect((await json<{ error: string }>(tooBig)).error).toBe('payload_too_large');
  });

  it('keeps __proto__ and constructor headers as plain data, polluting nothing', async () => {
    const before = await count();
    const raw = `{"form_import_from":"Proto","columns":{"nom":"constructor","prenom":"toString"},"data":[{"constructor":"Constructeur","toString":"Chaîne","telephone":"0612345678","code_postal":"30000"}]}`;
    const res = await importFile(raw);
    expect(res.status).toBe(200);
    const { rows } = await server.ctx.db.query<{ data: Record<string, unknown> }>("SELECT data FROM leads WHERE utm_medium = 'Proto'");
    expect(rows[0].data).toEqual({ nom: 'Constructeur', prenom: 'Chaîne', telephone: '0612345678', code_postal: '30000' });
    const proto = await importFile(
      `{"form_import_from":"Proto","data":[{"__proto__":{"admin":true},"nom":"x","telephone":"0612345678","code_postal":"30000"}]}`,
    );
    expect(proto.status).toBe(400);
    // A mapping to a header the row lacks must not read inherited properties either.
    const inherited = await importFile({
      form_import_from: 'Proto',
      columns: { nom: 'hasOwnProperty' },
      data: [{ telephone: '0612345678', code_postal: '30000' }],
    });
    expect(inherited.status).toBe(422);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    expect(await count()).toBe(before + 1);
  });

  it('refuses bad requests: unknown landing, no rows, no source, no token', async () => {
    const row = { nom: 'x', telephone: '0612345678', code_postal: '30000' };
    expect((await importFile({ form_import_from: 'X', data: [row] }, 987654)).status).toBe(404);
    const empty = await importFile({ form_import_from: 'X', data: [] });
    expect(empty.status).toBe(422);
    expect((await json<{ errors: Record<string, string> }>(empty)).errors.data).toBe('Le fichier ne contient aucune ligne');
    expect((await importFile({ data: [row] })).status).toBe(422);
    const shapes = await importFile({ form_import_from: 'X', data: [row, { nom: { nested: true } }, 'ligne', { ['H'.repeat(1001)]: 'x', surface: [1] }] });
    expect(shapes.status).toBe(422);
    const { errors } = await json<{ errors: Record<string, string> }>(shapes);
    expect(Object.keys(errors)).toEqual(['data.1.nom', 'data.2', `data.3.${'H'.repeat(1001)}`, 'data.3.surface']);
    expect(errors['data.2']).toMatch(/^Ligne illisible/);
    expect((await server.request('POST', `/api/landings/${landing.id}/import/excel`, { body: { form_import_from: 'X', data: [row] } })).status).toBe(401);
  });

  it('imports 20,000 rows in one go, counted by the month statistics and the bulk writes', async () => {
    const big = await createLanding(server.ctx.db);
    const written = async () => (await server.ctx.db.query<{ n: number }>('SELECT written::int AS n FROM lead_writes')).rows[0].n;
    const before = await written();
    const data = Array.from({ length: 20_000 }, (_, i) => ({ nom: `Lot ${i}`, telephone: `07${String(i).padStart(8, '0')}`, code_postal: '34000' }));
    const res = await importFile({ form_import_from: 'Gros lot', data }, big.id);
    expect(await json(res)).toEqual({ data: { inserted: 20_000, duplicates: 0 }, message: 'Leads importés' });
    expect(await count(big.id)).toBe(20_000);
    const stats = await server.ctx.db.query<{ value: number; departement: string; autre: number }>(
      'SELECT sum(value)::int AS value, departement, sum(autre)::int AS autre FROM lead_month_stats WHERE landing_id = $1 GROUP BY departement',
      [big.id],
    );
    expect(stats.rows).toEqual([{ value: 20_000, departement: '34', autre: 20_000 }]);
    expect((await written()) - before).toBeGreaterThanOrEqual(20_000);
  });

  it('refuses 20,000 rows whose faulty rows come after thousands were copied, and keeps none of them', async () => {
    const big = await createLanding(server.ctx.db);
    const row = (i: number) => ({ nom: `Lot ${i}`, telephone: `06${String(i).padStart(8, '0')}`, code_postal: '34000' });
    const data = Array.from({ length: 20_000 }, (_, i) => (i === 14_999 || i === 19_999 ? { ...row(i), code_postal: 'ABCDE' } : row(i)));
    const res = await importFile({ form_import_from: 'Lot fautif', data }, big.id);
    expect(res.status).toBe(422);
    const body = await json<{ rows: Array<{ row: number; column: string }> }>(res);
    expect(body.rows.map((e) => [e.row, e.column])).toEqual([
      [15_000, 'code_postal'],
      [20_000, 'code_postal'],
    ]);
    expect(await count(big.id)).toBe(0);
    const again = await importFile({ form_import_from: 'Lot corrigé', data: data.map((_, i) => row(i)) }, big.id);
    expect(await json(again)).toEqual({ data: { inserted: 20_000, duplicates: 0 }, message: 'Leads importés' });
  });

  it('keeps quotes, commas, line breaks and backslashes as typed, and absent fields as NULL', async () => {
    const own = await createLanding(server.ctx.db);
    const nom = 'Dupont, "le grand"\nbis \\N \\.';
    const res = await importFile(
      { form_import_from: 'Virgule, "guillemets"', data: [{ nom, telephone: '0611223344', code_postal: '75011', utm_campaign: '"' }] },
      own.id,
    );
    expect(res.status).toBe(200);
    const { rows } = await server.ctx.db.query("SELECT data->>'nom' AS nom, utm_medium, utm_campaign, utm_source, email FROM leads WHERE landing_id = $1", [
      own.id,
    ]);
    expect(rows).toEqual([{ nom, utm_medium: 'Virgule, "guillemets"', utm_campaign: '"', utm_source: null, email: null }]);
  });
  it("copies rows in COPY's text format as they were; a COPY that fails takes its transaction back and frees its connection", async () => {
    const { db } = server.ctx;
    await db.exec('CREATE TABLE copy_check (id int PRIMARY KEY, label text, tags text[], data jsonb)');
    try {
      const tricky = 'a\\b\tc\nd\re "f" ;g \\N \\.';
      const rows = [
        [1, tricky, ['x', 'y "z"', 'back\\slash', '\t'], { note: tricky, n: 2 }],
        [2, '', [], {}],
        [3, null, null, null],
      ];
      expect(await db.tx((q) => copyRows(q, 'copy_check', ['id', 'label', 'tags', 'data'], rows))).toBe(3);
      const { rows: back } = await db.query('SELECT id, label, tags, data FROM copy_check ORDER BY id');
      expect(back).toEqual(rows.map(([id, label, tags, data]) => ({ id, label, tags, data })));
      // On PostgreSQL such a COPY once left its connection waiting for ever, the transaction open.
      const failing = db.tx(async (q) => {
        await q.query("INSERT INTO copy_check (id, label) VALUES (4, 'rolled back')");
        return copyRows(q, 'copy_check', ['id'], [[5], [1]]);
      });
      await expect(failing).rejects.toMatchObject({ code: '23505' });
      expect((await db.query<{ id: number }>('SELECT id FROM copy_check ORDER BY id')).rows.map((r) => r.id)).toEqual([1, 2, 3]);
    } finally {
      await db.exec('DROP TABLE copy_check');
    }
  });
});
