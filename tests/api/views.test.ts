// Saved views (issue 28): a named lead list, private or shared, with its live count; a shared
// view is changed only by its author or an admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SavedView } from '../../src/api/views/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';

let server: TestServer;
let admin: string;
let marie: string;
let paul: string;
let landing: number;

beforeAll(async () => {
  server = await startServer();
  admin = await server.login(ADMIN.email, ADMIN.password);
  marie = await normalUserToken(server, 'marie@test.local');
  paul = await normalUserToken(server, 'paul@test.local');
  landing = (await createLanding(server.ctx.db)).id;
  await insertLeads(server.ctx.db, landing, [
    { code_postal: '30000', extra: { surface: 120, chauffage: 'Gaz' } },
    { code_postal: '30100', extra: { surface: 90, chauffage: 'Gaz' } },
    { code_postal: '34000', extra: { surface: 150, chauffage: 'Fioul' } },
    { code_postal: '30000', status: 'archived' },
  ]);
});
afterAll(() => server.close());

const state = (extra: Record<string, unknown> = {}) => ({
  landing_ids: [landing],
  tab: 'new',
  filters: { contains: { departement: '30' }, values: { chauffage: ['Gaz'] } },
  sort: { key: 'created_at', dir: 'asc' },
  ...extra,
});
const create = (body: Record<string, unknown>, token: string) => server.request('POST', '/api/views', { body, token });
const list = async (token: string) => (await json<{ data: SavedView[] }>(await server.request('GET', '/api/views', { token }))).data;
const patch = (id: number, body: unknown, token: string) => server.request('PATCH', `/api/views/${id}`, { body, token });

describe('saved views', () => {
  it('saves a list under a name and counts its leads with the list’s own filters', async () => {
    const res = await create({ name: 'PAC 30 au gaz', ...state() }, marie);
    expect(res.status).toBe(201);
    const body = await json<{ data: SavedView; message: string }>(res);
    expect(body).toMatchObject({ message: 'Vue enregistrée', data: { name: 'PAC 30 au gaz', shared: false, editable: true, count: 2, tab: 'new' } });
    expect(body.data.sort).toEqual({ key: 'created_at', dir: 'asc' });
    // The list itself agrees.
    const page = await json<{ total: number }>(
      await server.request('GET', `/api/landings/data/${landing}?filter[departement]=30&in[chauffage]=Gaz`, { token: marie }),
    );
    expect(page.total).toBe(2);

    const archived = await json<{ data: SavedView }>(await create({ name: 'Archivés', ...state({ tab: 'archived', filters: {} }) }, marie));
    expect(archived.data.count).toBe(1);
    const stats = await json<{ data: SavedView }>(await create({ name: 'Stats', ...state({ tab: 'production', filters: {}, sort: null }) }, marie));
    expect(stats.data.count).toBeNull();
  });

  it('shows a private view to its author alone and a shared one to everyone', async () => {
    const shared = await json<{ data: SavedView }>(await create({ name: 'Équipe', shared: true, ...state() }, marie));
    const names = (views: SavedView[]) => views.map((v) => v.name);
    expect(names(await list(marie))).toEqual(expect.arrayContaining(['PAC 30 au gaz', 'Équipe']));
    const seenByPaul = await list(paul);
    expect(names(seenByPaul)).toEqual(['Équipe']);
    expect(seenByPaul[0]).toMatchObject({ editable: false, owner: { name: 'Staff' }, count: 2 });
    expect((await list(admin)).find((v) => v.id === shared.data.id)?.editable).toBe(true);
  });

  it('refuses bad names, a name taken by the same owner, unknown landings, columns and tabs, in French', async () => {
    for (const name of ['', '   ', 'x'.repeat(81)]) {
      const res = await create({ name, ...state() }, paul);
      expect(res.status).toBe(422);
      expect(await json(res)).toMatchObject({ errors: { name: 'Nom de vue entre 1 et 80 caractères' } });
    }
    const taken = await create({ name: 'pac 30 AU GAZ', ...state() }, marie);
    expect(taken.status).toBe(409);
    expect(await json(taken)).toMatchObject({ error: 'conflict', message: 'Une vue nommée « pac 30 AU GAZ » existe déjà' });
    // Another owner may use the same name.
    expect((await create({ name: 'PAC 30 au gaz', ...state() }, paul)).status).toBe(201);

    expect((await create({ name: 'Perdue', ...state({ landing_ids: [999_999] }) }, paul)).status).toBe(404);
    const column = await create({ name: 'Colonne', ...state({ filters: { contains: { inconnue: 'x' } } }) }, paul);
    expect(column.status).toBe(422);
    expect((await json<{ message: string }>(column)).message).toBe('Colonne inconnue : inconnue');
    expect((await create({ name: 'Tri', ...state({ sort: { key: 'inconnue', dir: 'asc' } }) }, paul)).status).toBe(422);
    const tab = await create({ name: 'Onglet', ...state({ tab: 'nowhere' }) }, paul);
    expect(tab.status).toBe(422);
    expect(await json(tab)).toMatchObject({ errors: { tab: 'Onglet inconnu' } });
  });

  it('lets only the author or an admin change a shared view; another’s private view does not exist', async () => {
    const views = await list(marie);
    const shared = views.find((v) => v.name === 'Équipe')!;
    const mine = views.find((v) => v.name === 'Archivés')!;

    for (const res of [await patch(shared.id, { name: 'Volée' }, paul), await server.request('DELETE', `/api/views/${shared.id}`, { token: paul })]) {
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ message: 'Seul son auteur ou un administrateur peut modifier une vue partagée' });
    }
    expect((await patch(mine.id, { name: 'Volée' }, paul)).status).toBe(404);
    expect((await patch(mine.id, { name: 'Volée' }, admin)).status).toBe(404);

    const renamed = await patch(shared.id, { name: 'PAC 30 > 100 m²' }, admin);
    expect(renamed.status).toBe(200);
    expect(await json(renamed)).toMatchObject({ message: 'Vue modifiée', data: { name: 'PAC 30 > 100 m²', owner: { id: shared.owner.id } } });
    expect((await patch(shared.id, {}, marie)).status).toBe(422);
    expect((await patch(shared.id, { name: 'Archivés' }, marie)).status).toBe(409);

    const gone = await server.request('DELETE', `/api/views/${mine.id}`, { token: marie });
    expect(await json(gone)).toEqual({ data: { id: mine.id }, message: 'Vue supprimée' });
    expect((await list(marie)).some((v) => v.id === mine.id)).toBe(false);
  });

  it('moves a view up and down the list', async () => {
    const before = (await list(marie)).map((v) => v.id);
    expect(before.length).toBeGreaterThanOrEqual(3);
    await patch(before[2], { move: 'up' }, marie);
    expect((await list(marie)).map((v) => v.id)).toEqual([before[0], before[2], before[1], ...before.slice(3)]);
    await patch(before[2], { move: 'down' }, marie);
    expect((await list(marie)).map((v) => v.id)).toEqual(before);
    // The first stays first.
    expect((await patch(before[0], { move: 'up' }, marie)).status).toBe(200);
    expect((await list(marie))[0].id).toBe(before[0]);
  });
});
