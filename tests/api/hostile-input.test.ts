import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';

let server: TestServer;
let token: string;
let landing: { id: number; key: string };

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db);
});
afterAll(() => server.close());

type Failure = { error: string; message: string; errors?: Record<string, string> };
const refusedField = async (res: Response, field: string) => {
  const body = await json<Failure>(res);
  expect({ status: res.status, error: body.error }).toEqual({ status: 422, error: 'validation_failed' });
  expect(body.errors?.[field]).toBe('Caractère interdit : caractère nul ou Unicode invalide');
};
const statuses = async (ids: number[]) =>
  (await server.ctx.db.query<{ entry_status: string }>('SELECT entry_status FROM leads WHERE id = ANY($1::bigint[]) ORDER BY id', [ids])).rows.map(
    (r) => r.entry_status,
  );

describe('a NUL character or a lone surrogate in any text', () => {
  const intake = { nom: 'Dupont', telephone: '0612345678', code_postal: '30000' };

  it('is refused with 422 naming the field, wherever the text goes', async () => {
    const ids = await insertLeads(server.ctx.db, landing.id, [{}, {}]);
    const cases: Array<[string, Promise<Response>]> = [
      ['email', server.request('POST', '/api/auth', { body: { email: 'a\u0000b@test.local', password: 'x' } })],
      ['email', server.request('POST', '/api/auth', { body: { email: 'a\ud800b@test.local', password: 'x' } })],
      ['password', server.request('POST', '/api/auth', { body: { email: ADMIN.email, password: '\udc00' } })],
      ['key', server.request('POST', '/api/intake/a%00b', { body: intake })],
      ['nom', server.request('POST', `/api/intake/${landing.key}`, { body: { ...intake, nom: 'Du\u0000pont' } })],
      ['utm_campaign', server.request('POST', `/api/intake/${landing.key}`, { body: { ...intake, utm_campaign: '\ud83d' } })],
      ['filter[nom]', server.request('GET', `/api/landings/data/${landing.id}?filter[nom]=a%00b`, { token })],
      ['in[nom]', server.request('GET', `/api/landings/data/${landing.id}?in[nom]=a%00b`, { token })],
      ['in[nom].1', server.request('GET', `/api/landings/data/${landing.id}/count?in[nom]=a&in[nom]=%00`, { token })],
      ['filter[a\ufffdb]', server.request('GET', `/api/landings/data/${landing.id}?filter[a%00b]=x`, { token })],
      [
        'filter.filters.contains.nom',
        server.request('POST', '/api/landings/data', {
          token,
          body: { entry_status: 'archived', filter: { ids: [landing.id], entry_status: 'new', filters: { contains: { nom: 'a\u0000' } } } },
        }),
      ],
      ['for_customer', server.request('POST', `/api/landings/data/${landing.id}/export`, { token, body: { leads: ids, for_customer: 'Client\u0000' } })],
      [
        'data.1.Nom',
        server.request('POST', `/api/landings/${landing.id}/import/excel`, {
          token,
          body: { form_import_from: 'Salon', data: [{ Nom: 'A' }, { Nom: 'B\ud800' }] },
        }),
      ],
      [
        'data.0.Nom',
        server.request('POST', `/api/landings/${landing.id}/import/excel`, { token, body: { form_import_from: 'Salon', data: [{ Nom: 'A\u0000' }] } }),
      ],
      [
        'data.0.N\ufffd',
        server.request('POST', `/api/landings/${landing.id}/import/excel`, { token, body: { form_import_from: 'Salon', data: [{ 'N\u0000': 'A' }] } }),
      ],
      ['name', server.request('POST', '/api/auth/register', { token, body: { name: 'Nom\u0000', email: 'nul@test.local' } })],
    ];
    for (const [field, res] of cases) await refusedField(await res, field);
    expect(await statuses(ids)).toEqual(['new', 'new']);
  });

  it('keeps emoji and accents (surrogate pairs are whole characters)', async () => {
    const res = await server.request('POST', `/api/intake/${landing.key}`, { body: { ...intake, nom: 'Zoé 😀' } });
    expect(res.status).toBe(201);
  });
});

describe('empty filters', () => {
  it('are no filter at all, on fixed and form columns alike (an unused bound column key was a 500)', async () => {
    for (const query of ['filter[nom]=', 'nom=', 'filter[date_projet]=<>', 'date[date_projet]=<>', 'filter[utm_source]=']) {
      const res = await server.request('GET', `/api/landings/data/${landing.id}?${query}`, { token });
      expect(res.status, query).toBe(200);
    }
    const body = {
      entry_status: 'archived',
      filter: { ids: [landing.id], entry_status: 'trashed', filters: { contains: { nom: '' }, values: { chauffage: [] }, dates: { date_projet: '<>' } } },
    };
    expect((await server.request('POST', '/api/landings/data', { token, body })).status).toBe(200);
    expect((await server.request('GET', `/api/landings/data/${landing.id}?filter[inconnue]=`, { token })).status).toBe(422);
  });
});

describe('text lengths', () => {
  it('refuse a 1 MB email at sign-in with 422, not a 500', async () => {
    const res = await server.request('POST', '/api/auth', { body: { email: `${'a'.repeat(1_000_000)}@test.local`, password: 'x' } });
    expect(res.status).toBe(422);
    expect((await json<Failure>(res)).errors?.email).toBe('Adresse email trop longue');
    const username = await server.request('POST', '/api/auth', { body: { username: 'a'.repeat(255), password: 'x' } });
    expect(username.status).toBe(422);
  });

  it('refuse an over-long filter column name', async () => {
    const res = await server.request('GET', `/api/landings/data/${landing.id}?filter[${'c'.repeat(5000)}]=x`, { token });
    expect(res.status).toBe(422);
  });
});

describe('malformed JSON', () => {
  it('answers 400 bad_request, whatever the declared type of the body', async () => {
    for (const type of ['application/json', 'text/plain;charset=UTF-8', 'text/plain']) {
      const res = await fetch(`${server.url}/api/auth`, { method: 'POST', headers: { 'content-type': type }, body: '{"email": "a@test.local",' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'bad_request', message: "Le corps de la requête n'est pas un JSON valide" });
    }
  });

  it('reads a text/plain JSON body as JSON (landing pages skip the CORS preflight that way)', async () => {
    const res = await fetch(`${server.url}/api/auth`, { method: 'POST', body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }) });
    expect(res.status).toBe(200);
  });
});

describe('an export given both leads and a filter', () => {
  it('answers 422 like a status change, and sells nothing', async () => {
    const ids = await insertLeads(server.ctx.db, landing.id, [{}, {}]);
    const res = await server.request('POST', `/api/landings/data/${landing.id}/export`, {
      token,
      body: { bookType: 'csv', leads: [ids[0]], filter: { ids: [landing.id], entry_status: 'new' } },
    });
    expect(res.status).toBe(422);
    expect(await json(res)).toMatchObject({ error: 'validation_failed', errors: { leads: 'Merci de sélectionner des leads' } });
    expect(await statuses(ids)).toEqual(['new', 'new']);
  });
});
