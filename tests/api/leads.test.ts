import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadListResponse } from '../../src/api/leads/contract';
import { leadListSearchParams } from '../../src/api/leads/contract';
import { cursorKey, encodeCursor } from '../../server/services/leads/cursor';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';

let server: TestServer;
let token: string;
let staff: string;
let pac: { id: number; key: string };
let pv: { id: number; key: string };
let fb: { id: number; key: string };

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  staff = await normalUserToken(server);
  pac = await createLanding(server.ctx.db, { name: 'PAC Sud', category: 'pac' });
  pv = await createLanding(server.ctx.db, {
    name: 'PV Nord',
    category: 'pv',
    zone: false,
    columns: [
      { key: 'nom', label: 'Nom', type: 'text', required: true },
      { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
      { key: 'code_postal', label: 'CP', type: 'postal_code', required: true },
      { key: 'toiture', label: 'Toiture', type: 'text', required: false },
    ],
  });
  fb = await createLanding(server.ctx.db, { name: 'FB Pompe', kind: 'facebook' });
});
afterAll(() => server.close());

const list = (ids: string, qs: string, as = token) => server.request('GET', `/api/landings/data/${ids}?${qs}`, { token: as });

describe('landings', () => {
  it('lists standard, facebook and all landings, for a normal user too', async () => {
    const std = await json<{ data: Array<{ id: number; name: string; columns: unknown[]; category: string; zone_climatique: boolean }> }>(
      await server.request('GET', '/api/landings', { token: staff }),
    );
    expect(std.data.map((l) => l.name)).toEqual(['PAC Sud', 'PV Nord']);
    expect(std.data[0]).toMatchObject({ id: pac.id, category: 'pac', zone_climatique: true, kind: 'standard' });
    expect(std.data[0].columns).toHaveLength(8);
    const facebook = await json<{ data: Array<{ name: string }> }>(await server.request('GET', '/api/landings_facebook', { token }));
    expect(facebook.data.map((l) => l.name)).toEqual(['FB Pompe']);
    const all = await json<{ data: unknown[] }>(await server.request('GET', '/api/all/landings', { token }));
    expect(all.data).toEqual([
      { id: fb.id, name: 'FB Pompe' },
      { id: pac.id, name: 'PAC Sud' },
      { id: pv.id, name: 'PV Nord' },
    ]);
  });

  it('answers one landing with its columns, and 404 with the LP message for unknown or malformed ids', async () => {
    const one = await json<{ data: { name: string; columns: Array<{ key: string }> } }>(await server.request('GET', `/api/landings/${pv.id}`, { token }));
    expect(one.data.name).toBe('PV Nord');
    expect(one.data.columns.map((c) => c.key)).toEqual(['nom', 'telephone', 'code_postal', 'toiture']);
    for (const id of ['999999', 'abc', '1}', '-1', '99999999999999', '0x1', '%201', '1e0']) {
      const res = await server.request('GET', `/api/landings/${id}`, { token });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'not_found', message: 'Impossible de récupérer les données de la LP.' });
    }
  });

  it('refuses every lead endpoint without a token', async () => {
    const calls: Array<[string, string]> = [
      ['GET', '/api/landings'],
      ['GET', '/api/landings_facebook'],
      ['GET', '/api/all/landings'],
      ['GET', `/api/landings/${pac.id}`],
      ['GET', `/api/landings/data/${pac.id}`],
      ['POST', '/api/landings/data'],
      ['POST', '/api/landings/data/undo/1'],
      ['DELETE', '/api/landings/data'],
      ['POST', '/api/landings/convert/leads'],
      ['POST', `/api/landings/data/${pac.id}/export`],
      ['POST', `/api/landings/${pac.id}/import/excel`],
      ['GET', `/api/landings/data/departement/${pac.id}/production/2025-01-01/2025-12-31/0`],
    ];
    for (const [method, path] of calls) {
      const res = await server.request(method, path, { body: method === 'GET' ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await res.json()).error).toBe('token_not_provided');
    }
  });
});

describe('lead list', () => {
  let ids: number[];
  beforeAll(async () => {
    ids = await insertLeads(server.ctx.db, pac.id, [
      { nom: 'Martin', telephone: '0611111111', code_postal: '30000', created_at: '2025-03-01T10:00:00Z', extra: { chauffage: 'Gaz', surface: 120 } },
      { nom: "O'Brien; DROP TABLE leads;--", telephone: '0622222222', code_postal: '34000', created_at: '2025-03-02T10:00:00Z', extra: { surface: 80 } },
      { nom: '100% <b>gras</b>', telephone: '0633333333', code_postal: '75001', created_at: '2025-03-03T10:00:00Z', extra: { surface: 9 } },
      { nom: 'under_score', telephone: '0644444444', code_postal: '13001', created_at: '2025-03-04T23:30:00Z', source: 'taboola' },
      { nom: 'Archivé', telephone: '0655555555', code_postal: '30100', status: 'archived', created_at: '2025-03-05T10:00:00Z' },
    ]);
    await insertLeads(server.ctx.db, pv.id, [
      { nom: 'Solaire', telephone: '0666666666', code_postal: '59000', created_at: '2025-03-06T10:00:00Z', extra: { toiture: 'tuiles' } },
    ]);
  });

  it('answers data, keys, for_customer, import_from and total, newest first, status new by default', async () => {
    const res = await list(String(pac.id), '');
    expect(res.status).toBe(200);
    const body = await json<LeadListResponse>(res);
    expect(body.total).toBe(4);
    expect(body.data.map((r) => r.nom)).toEqual(['under_score', '100% <b>gras</b>', "O'Brien; DROP TABLE leads;--", 'Martin']);
    expect(body.data[3]).toMatchObject({ id: ids[0], landing: pac.id, entry_status: 'new', departement: '30', chauffage: 'Gaz', surface: 120 });
    expect(body.keys.find((k) => k.key === 'rapport_id')).toMatchObject({ hidden: true, fixed: true });
    expect(body.keys.find((k) => k.key === 'code_postal')).toMatchObject({ label: 'Code postal', fixed: false, type: 'postal_code' });
    expect(body).toMatchObject({ for_customer: [], import_from: [], next_cursor: null });
  });

  it('answers a row as its columns and form values, as stored: times in UTC to the millisecond, odd keys and texts as values, no form value named as a column', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'Lignes' });
    const data = JSON.parse(
      '{"__proto__": {"admin": true}, "constructor": "c", "entry_status": "archived", "landing": 0, "duplicate_of": 3, "nom": "Zoë \\"l\'Ours\\" \\\\ 北京\\n", "surface": 1.5, "vide": null, "liste": [1, "a"]}',
    ) as Record<string, unknown>;
    const { rows } = await server.ctx.db.query<{ id: number; created_at: Date; updated_at: Date }>(
      `INSERT INTO leads (landing_id, created_at, updated_at, utm_campaign, departement, data)
       VALUES ($1, '2025-06-01 10:00:00.123456+00', '2025-06-02 23:59:59.999999+02', 'été', '30', $2) RETURNING id, created_at, updated_at`,
      [landing.id, data],
    );
    const [lead] = rows;
    const text = await (await list(String(landing.id), '')).text();
    expect(text).toContain('"__proto__"');
    const row = (JSON.parse(text) as LeadListResponse).data[0] as Record<string, unknown>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(row).toEqual({
      id: lead!.id,
      created_at: lead!.created_at.toISOString(),
      updated_at: '2025-06-02T21:59:59.999Z',
      landing: landing.id,
      entry_status: 'new',
      source: 'autre',
      utm_source: null,
      utm_medium: null,
      utm_campaign: 'été',
      url_presale: null,
      visitor: null,
      departement: '30',
      zone_climatique: '',
      sold_to: null,
      convert: null,
      rapport_id: null,
      ['__proto__']: { admin: true },
      constructor: 'c',
      nom: 'Zoë "l\'Ours" \\ 北京\n',
      surface: 1.5,
      vide: null,
      liste: [1, 'a'],
    });
    expect(row.created_at).toBe('2025-06-01T10:00:00.123Z');
    expect(row.admin).toBeUndefined();
    await server.ctx.db.query('DELETE FROM landings WHERE id = $1', [landing.id]);
  });

  it('unions the form columns of several landings', async () => {
    const body = await json<LeadListResponse>(await list(`${pac.id},${pv.id}`, ''));
    expect(body.total).toBe(5);
    const formKeys = body.keys.filter((k) => !k.fixed).map((k) => k.key);
    expect(formKeys).toEqual(['nom', 'prenom', 'telephone', 'email', 'code_postal', 'chauffage', 'surface', 'date_projet', 'toiture']);
  });

  it('filters by contains, literally: SQL metacharacters, %, _ and HTML', async () => {
    const names = async (qs: string) => (await json<LeadListResponse>(await list(String(pac.id), qs))).data.map((r) => r.nom);
    expect(await names(`filter[nom]=${encodeURIComponent("O'Brien; DROP")}`)).toEqual(["O'Brien; DROP TABLE leads;--"]);
    expect(await names(`filter[nom]=${encodeURIComponent('%')}`)).toEqual(['100% <b>gras</b>']);
    expect(await names(`filter[nom]=_`)).toEqual(['under_score']);
    expect(await names(`filter[nom]=${encodeURIComponent('<b>')}`)).toEqual(['100% <b>gras</b>']);
    expect(await names(`filter[nom]=MARTIN`)).toEqual(['Martin']);
    expect(await names(`nom=martin`)).toEqual(['Martin']);
    const count = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads');
    expect(count.rows[0].n).toBe(6);
  });

  it('filters by exact values, dates (Paris days) and combines filters on fixed and form columns', async () => {
    const names = async (qs: string) => (await json<LeadListResponse>(await list(String(pac.id), qs))).data.map((r) => r.nom);
    expect(await names('in[source]=taboola')).toEqual(['under_score']);
    expect(await names('in[chauffage]=Gaz&in[chauffage]=Fioul')).toEqual(['Martin']);
    expect(await names('in[departement]=30&in[departement]=34')).toEqual(["O'Brien; DROP TABLE leads;--", 'Martin']);
    // 2025-03-04T23:30Z is already 5 March in Paris.
    expect(await names('date[created_at]=2025-03-02<>2025-03-04')).toEqual(['100% <b>gras</b>', "O'Brien; DROP TABLE leads;--"]);
    expect(await names('filter[created_at]=2025-03-05<>')).toEqual(['under_score']);
    expect(await names('date[created_at]=<>2025-03-01')).toEqual(['Martin']);
    expect(await names('in[source]=google&filter[telephone]=0622')).toEqual(["O'Brien; DROP TABLE leads;--"]);
    // A phone as people write it: separators and the country prefix read as the stored number is written.
    for (const typed of ['06 22 22', '+33 6 22', '0033-6.22', '(06) 22/22']) {
      expect(await names(`filter[telephone]=${encodeURIComponent(typed)}`)).toEqual(["O'Brien; DROP TABLE leads;--"]);
    }
    // Separators alone look for nothing in particular: every lead with a phone.
    expect(await names(`filter[telephone]=${encodeURIComponent(' - ')}`)).toHaveLength(4);
    // A postal code typed with a space, as addresses write it.
    expect(await names(`filter[code_postal]=${encodeURIComponent('75 0')}`)).toEqual(['100% <b>gras</b>']);
    expect(await names('filter[code_postal]=3000')).toEqual(['Martin']);
    const body = await json<LeadListResponse>(await list(String(pac.id), 'filter[nom]=zzz'));
    expect(body).toMatchObject({ data: [], total: 0 });
  });

  it('sorts on fixed and form columns (numbers as numbers) and pages with a stable cursor', async () => {
    const bySurface = await json<LeadListResponse>(await list(String(pac.id), '_sort=surface&_order=desc'));
    expect(bySurface.data.map((r) => r.surface ?? null)).toEqual([120, 80, 9, null]);
    const byName = await json<LeadListResponse>(await list(String(pac.id), '_sort=nom&_order=asc'));
    expect(byName.data[0].nom).toBe('100% <b>gras</b>');

    const seen: number[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const qs: string = leadListSearchParams({ _limit: 1, _sort: 'surface', _order: 'asc', ...(cursor ? { _cursor: cursor } : {}) }).toString();
      const page: LeadListResponse = await json<LeadListResponse>(await list(String(pac.id), qs));
      seen.push(...page.data.map((r) => r.id));
      cursor = page.next_cursor;
      pages++;
    }
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(4);
    const offset = await json<LeadListResponse>(await list(String(pac.id), '_limit=2&_offset=2&_sort=id&_order=asc'));
    expect(offset.data.map((r) => r.id)).toEqual([ids[2], ids[3]]);
  });

  it('pages on a text column holding 5,000-character values: the cursor names the row, not the value', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'Longs textes' });
    const long = (c: string) => c.repeat(5000);
    await insertLeads(
      server.ctx.db,
      landing.id,
      ['b', 'a', 'd', 'c', 'a'].map((c, i) => ({ nom: long(c), telephone: `061111111${i}` })),
    );
    const names: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const qs: string = leadListSearchParams({ _limit: 2, _sort: 'nom', _order: 'asc', ...(cursor ? { _cursor: cursor } : {}) }).toString();
      const res = await list(String(landing.id), qs);
      expect(res.status).toBe(200);
      const page: LeadListResponse = await json<LeadListResponse>(res);
      names.push(...page.data.map((r) => String(r.nom)[0]));
      cursor = page.next_cursor;
      if (cursor) expect(cursor.length).toBeLessThan(200);
    }
    expect(names).toEqual(['a', 'a', 'b', 'c', 'd']);
  });

  it('merges several landings in one order, by cursor and by offset', async () => {
    const all = await json<LeadListResponse>(await list(`${pac.id},${pv.id}`, '_limit=500&_sort=created_at&_order=desc'));
    const expected = all.data.map((r) => r.id);
    expect(expected).toHaveLength(5);
    expect(all.data.map((r) => r.created_at)).toEqual([...all.data.map((r) => r.created_at)].sort().reverse());
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const qs: string = leadListSearchParams({ _limit: 2, ...(cursor ? { _cursor: cursor } : {}) }).toString();
      const page: LeadListResponse = await json<LeadListResponse>(await list(`${pac.id},${pv.id}`, qs));
      seen.push(...page.data.map((r) => r.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    const second = await json<LeadListResponse>(await list(`${pv.id},${pac.id}`, '_limit=2&_offset=2'));
    expect(second.data.map((r) => r.id)).toEqual(expected.slice(2, 4));
  });

  it('pages on the department, the source, the UTM source and medium, the buyer, the last change, the id and the visitor, beside a form filter, as the leads say, by cursor and by offset', async () => {
    const a = await createLanding(server.ctx.db, { name: 'Départements A' });
    const b = await createLanding(server.ctx.db, { name: 'Départements B' });
    const seeds = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        code_postal: ['13001', '30000', '48000'][i % 3],
        source: i % 4 === 0 ? 'sms' : 'google',
        created_at: new Date(Date.UTC(2025, 4, 1) + ((i * 7) % 23) * 3_600_000).toISOString(),
        extra: { chauffage: i % 2 ? 'Gaz' : 'Fioul' },
      }));
    await insertLeads(server.ctx.db, a.id, seeds(23));
    await insertLeads(server.ctx.db, b.id, seeds(17));
    await server.ctx.db.query(
      `UPDATE leads SET utm_source = (ARRAY['Facebook', 'google', NULL])[id % 3 + 1], utm_medium = CASE WHEN id % 2 = 0 THEN 'cpc' ELSE 'paid_social' END,
              sold_to = CASE WHEN id % 5 < 2 THEN 'Éco Habitat' END, updated_at = created_at + (id % 4) * interval '1 day',
              visitor = CASE WHEN id % 3 = 0 THEN 'Vis-AB' ELSE 'vis-cd' END || id
        WHERE landing_id = ANY($1::int[])`,
      [[a.id, b.id]],
    );
    const ids = `${a.id},${b.id}`;
    const truth = async (condition: string) =>
      (
        await server.ctx.db.query<{ id: number }>(
          `SELECT id::int FROM leads WHERE landing_id = ANY($1::int[]) AND entry_status = 'new' AND ${condition} ORDER BY created_at DESC, id DESC`,
          [[a.id, b.id]],
        )
      ).rows.map((r) => r.id);
    for (const [query, condition] of [
      ['in[departement]=48', "departement = '48'"],
      ['in[departement]=13&in[source]=sms', "departement = '13' AND source = 'sms'"],
      ['in[departement]=30&in[chauffage]=Gaz', "departement = '30' AND data->>'chauffage' = 'Gaz'"],
      ['filter[departement]=3&date[created_at]=2025-05-01<>2025-05-01', "departement LIKE '%3%' AND created_at < '2025-05-01T22:00:00Z'"],
      ['filter[utm_source]=FACE', "utm_source ILIKE '%face%'"],
      ['in[utm_medium]=cpc&in[departement]=13', "utm_medium = 'cpc' AND departement = '13'"],
      ['filter[utm_source]=o&in[chauffage]=Gaz', "utm_source LIKE '%o%' AND data->>'chauffage' = 'Gaz'"],
      ['filter[sold_to]=habitat', "sold_to ILIKE '%habitat%'"],
      ['date[updated_at]=2025-05-02<>2025-05-03', "updated_at >= '2025-05-01T22:00:00Z' AND updated_at < '2025-05-03T22:00:00Z'"],
      ['filter[id]=2', "id::text LIKE '%2%'"],
      ['filter[visitor]=ab', "visitor ILIKE '%ab%'"],
    ]) {
      const expected = await truth(condition);
      expect(expected.length, query).toBeGreaterThan(2);
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page: LeadListResponse = await json<LeadListResponse>(
          await list(ids, `${query}&_limit=2${cursor ? `&_cursor=${encodeURIComponent(cursor)}` : ''}`),
        );
        seen.push(...page.data.map((r) => r.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen, query).toEqual(expected);
      const second = await json<LeadListResponse>(await list(ids, `${query}&_limit=2&_offset=2`));
      expect(
        second.data.map((r) => r.id),
        query,
      ).toEqual(expected.slice(2, 4));
      expect(second.total, query).toBe(expected.length);
    }
  });

  it('filters a phone and an email as the form stored them, where the landing has only one such column and where it has two, by page and by count', async () => {
    const one = await createLanding(server.ctx.db, { name: 'Personnes A' });
    const two = await createLanding(server.ctx.db, {
      name: 'Personnes B',
      columns: [
        { key: 'nom', label: 'Nom', type: 'text', required: true },
        { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
        { key: 'email_pro', label: 'Email pro', type: 'email', required: false },
        { key: 'email', label: 'Email', type: 'email', required: false },
      ],
    });
    const seeds = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        telephone: `06${String(12_000_000 + i * 37).padStart(8, '0')}`,
        email: i % 3 ? `Jean.Martin${i}@Exemple.fr` : `claire${i}@exemple.fr`,
        created_at: new Date(Date.UTC(2025, 5, 1) + i * 3_600_000).toISOString(),
      }));
    await insertLeads(server.ctx.db, one.id, seeds(19));
    // On the second landing intake copies its first email column, the professional one, into the
    // lead: a filter on `email` must read the form's value.
    const second = await insertLeads(server.ctx.db, two.id, seeds(13));
    await server.ctx.db.query(
      `UPDATE leads SET email = 'pro' || id || '@societe.fr', data = data || jsonb_build_object('email_pro', 'pro' || id || '@societe.fr') WHERE id = ANY($1::bigint[])`,
      [second],
    );
    const truth = async (ids: number[], key: string, pattern: string) =>
      (
        await server.ctx.db.query<{ id: number }>(
          `SELECT id::int FROM leads WHERE landing_id = ANY($1::int[]) AND entry_status = 'new' AND data->>$2 ILIKE $3 ORDER BY created_at DESC, id DESC`,
          [ids, key, pattern],
        )
      ).rows.map((r) => r.id);
    for (const [ids, key, text, pattern] of [
      [[one.id], 'email', 'MARTIN', '%martin%'],
      [[one.id], 'telephone', '06 12 00', '%061200%'],
      [[two.id], 'email', 'martin', '%martin%'],
      [[one.id, two.id], 'email', 'jean.', '%jean.%'],
      [[one.id, two.id], 'telephone', '0001', '%0001%'],
    ] as const) {
      const query = `filter[${key}]=${encodeURIComponent(text)}`;
      const expected = await truth([...ids], key, pattern);
      expect(expected.length, query).toBeGreaterThan(3);
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page: LeadListResponse = await json<LeadListResponse>(
          await list(ids.join(','), `${query}&_limit=3${cursor ? `&_cursor=${encodeURIComponent(cursor)}` : ''}`),
        );
        seen.push(...page.data.map((r) => r.id));
        cursor = page.next_cursor;
      } while (cursor);
      expect(seen, query).toEqual(expected);
      const count = await server.request('GET', `/api/landings/data/${ids.join(',')}/count?${query}`, { token });
      expect(await json(count), query).toEqual({ total: expected.length });
    }
  });

  it('lists other statuses and honours _limit 0', async () => {
    const archived = await json<LeadListResponse>(await list(String(pac.id), 'entry_status=archived'));
    expect(archived.data.map((r) => r.nom)).toEqual(['Archivé']);
    const none = await json<LeadListResponse>(await list(String(pac.id), '_limit=0'));
    expect(none).toMatchObject({ data: [], total: 4 });
  });

  it('refuses bad input with 422 or 404', async () => {
    const expect422 = async (qs: string, field: string) => {
      const res = await list(String(pac.id), qs);
      expect(res.status, qs).toBe(422);
      const body = await json<{ error: string; errors: Record<string, string> }>(res);
      expect(body.error).toBe('validation_failed');
      expect(Object.keys(body.errors), qs).toContain(field);
    };
    await expect422('_limit=501', '_limit');
    await expect422('_limit=-1', '_limit');
    await expect422('_limit=abc', '_limit');
    await expect422('entry_status=sold', 'entry_status');
    await expect422('filter[inexistante]=x', 'filter[inexistante]');
    await expect422('in[toiture]=x', 'in[toiture]');
    await expect422('colonne_fantome=1', 'filter[colonne_fantome]');
    await expect422('_sort=nope', '_sort');
    await expect422('date[nom]=2025-01-01<>2025-01-02', 'date[nom]');
    await expect422('date[created_at]=2025-02-30<>', 'date');
    await expect422('date[created_at]=0000-01-05<>', 'date');
    await expect422('filter[created_at]=<>0000-12-31', 'date');
    await expect422('date[created_at]=yesterday', 'dates.created_at');
    await expect422('_limit=', '_limit');
    await expect422('_limit=0x10', '_limit');
    await expect422('_offset=1e3', '_offset');
    await expect422('in[constructor]=x', 'in[constructor]');
    await expect422('filter[toString]=x', 'filter[toString]');
    await expect422('filter[__proto__]=x', 'filter[__proto__]');
    await expect422('_cursor=garbage', '_cursor');
    // A cursor is opaque: unsigned, or made for another sort, it is refused; signed by the server
    // (as after a form column changed type), a value that would not cast is refused too.
    const unsigned = `_cursor=${Buffer.from(JSON.stringify(['created_at', '2025-01-01 10:00:00.5+00', 1])).toString('base64url')}`;
    await expect422(unsigned, '_cursor');
    const key = await cursorKey(server.ctx.db);
    const cursor = (sortKey: string, value: string) => `_cursor=${encodeCursor(key, sortKey, value, 1)}`;
    await expect422(cursor('created_at', 'x'), '_cursor');
    await expect422(cursor('created_at', '2025-02-30 10:00:00+00'), '_cursor');
    await expect422(cursor('created_at', '0000-06-01 10:00:00+00'), '_cursor');
    await expect422(`_sort=id&${cursor('id', '99999999999999999999')}`, '_cursor');
    await expect422(`_sort=surface&${cursor('surface', 'abc')}`, '_cursor');
    await expect422(`_sort=surface&${cursor('created_at', '2025-01-01 10:00:00+00')}`, '_cursor');
    expect((await list(String(pac.id), cursor('created_at', '2025-01-01 10:00:00.5+00'))).status).toBe(200);
    const entry = await json<{ errors: Record<string, string> }>(await list(String(pac.id), 'entry_status=sold'));
    expect(entry.errors.entry_status).toMatch(/^Option invalide/);
    const res = await list(String(pac.id), `filter[nom]=${'x'.repeat(501)}`);
    expect(res.status).toBe(422);
    for (const ids of ['999999', `${pac.id},999999`, 'abc', `${pac.id},,`]) {
      const r = await list(ids, '');
      expect(r.status, ids).toBe(404);
      expect((await r.json()).message).toBe('Impossible de récupérer les données de la LP.');
    }
  });
});
