import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepartementCodesResponse, TaboolaAccountsResponse, TaboolaCampaignsResponse, TargetingResponse } from '../../src/api/taboola/contract';
import { seedTaboolaSandbox } from '../../server/db/seed-admin';
import { postalCodesByDepartement } from '../../server/services/geo';
import { ADMIN, startServer, type TestServer } from './harness';
import { json, normalUserToken } from './leads-support';

let server: TestServer;
let token: string;
let campaign: string;
const ACCOUNT = 'ecohabitat-sud';

beforeAll(async () => {
  server = await startServer();
  await seedTaboolaSandbox(server.ctx.db);
  token = await server.login(ADMIN.email, ADMIN.password);
  const campaigns = (await json<TaboolaCampaignsResponse>(await server.request('GET', `/api/taboola/campaigns/${ACCOUNT}`, { token }))).data;
  campaign = campaigns.find((c) => c.name === 'PAC Occitanie – notoriété')!.id;
});
afterAll(() => server.close());

const codesPath = () => `/api/taboola/campaigns/${ACCOUNT}/${campaign}/codes`;
const current = async () => (await json<TargetingResponse>(await server.request('GET', codesPath(), { token }))).data;

/** Posts a multipart send; `file` goes as an xlsx upload. */
function send(fields: Record<string, string>, file?: Uint8Array, as = token, path = codesPath()) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([new Uint8Array(file)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'codes.xlsx');
  return fetch(server.url + path, { method: 'POST', body: form, headers: { authorization: `Bearer ${as}` } });
}

/** An xlsx whose first column holds `cells` (strings stay text cells, numbers numeric cells). */
function xlsx(cells: Array<string | number | { v: number; z: string }>): Uint8Array {
  const sheet = XLSX.utils.aoa_to_sheet(cells.map((c) => [typeof c === 'object' ? c.v : c, 'autre colonne']));
  cells.forEach((c, i) => {
    if (typeof c === 'object') sheet[XLSX.utils.encode_cell({ r: i, c: 0 })]!.z = c.z;
  });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Codes');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['75001']]), 'Ignorée');
  return new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
}

describe('Taboola sandbox', () => {
  it('lists the demo accounts and campaigns, and says it is the sandbox', async () => {
    const accounts = await json<TaboolaAccountsResponse>(await server.request('GET', '/api/taboola/accounts', { token }));
    expect(accounts.sandbox).toBe(true);
    expect(accounts.data.map((a) => a.name)).toEqual(['ÉcoHabitat Sud', 'Isolation Nationale', 'Solaire Rhône-Alpes']);
    const campaigns = await json<TaboolaCampaignsResponse>(await server.request('GET', `/api/taboola/campaigns/${ACCOUNT}`, { token }));
    expect(campaigns.sandbox).toBe(true);
    expect(campaigns.data).toHaveLength(3);
    expect(campaigns.data.every((c) => c.advertiser_id === ACCOUNT)).toBe(true);
    const gard = campaigns.data.find((c) => c.name === 'PAC Gard – printemps')!;
    const codes = await json<TargetingResponse>(await server.request('GET', `/api/taboola/campaigns/${ACCOUNT}/${gard.id}/codes`, { token }));
    expect(codes.data.type).toBe('INCLUDE');
    expect(codes.data.codes).toContain('30000');
  });

  it('sends an xlsx: first column of the first sheet, header skipped, leading zeros kept, duplicates merged', async () => {
    const file = xlsx(['Code postal', '01000', 1090, { v: 1100, z: '00000' }, '30000', ' 34000 ', '01000', '']);
    const res = await send({ type: 'INCLUDE' }, file);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { type: 'INCLUDE', codes: ['01000', '01090', '01100', '30000', '34000'] },
      sandbox: true,
      message: 'Codes postaux mis à jour',
    });
    expect(await current()).toEqual({ type: 'INCLUDE', codes: ['01000', '01090', '01100', '30000', '34000'] });
    const audit = await server.ctx.db.query<{ count: number }>(`SELECT count FROM audit_log WHERE action = 'taboola.targeting' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0]!.count).toBe(5);
  });

  it('lists the unknown codes with their lines and sends nothing', async () => {
    const before = await current();
    const res = await send({ type: 'INCLUDE' }, xlsx(['30000', '99999', 'ABCDE', '123', '34000']));
    expect(res.status).toBe(422);
    const body = await json<{ error: string; message: string; unknown: string[]; rows: number[] }>(res);
    expect(body).toMatchObject({ error: 'validation_failed', unknown: ['99999', 'ABCDE', '123'], rows: [2, 3, 4] });
    expect(body.message).toBe("Codes postaux inconnus : 99999, ABCDE, 123. Rien n'a été envoyé.");
    expect(await current()).toEqual(before);
  });

  it('reads every line of a long file (a list of communes repeats its codes), and refuses one too long to read, sending nothing', async () => {
    // 12,000 lines: past the 10,000th, a code of its own and an unknown one, which must not be dropped unseen.
    const lines = ['Code postal', ...Array.from({ length: 12_000 }, (_, i) => (i < 11_000 ? '30000' : i % 2 ? '01000' : '99999'))];
    const before = await current();
    const refused = await send({ type: 'INCLUDE' }, xlsx(lines));
    expect(refused.status).toBe(422);
    expect(await json<{ unknown: string[]; rows: number[] }>(refused)).toMatchObject({
      unknown: Array(500).fill('99999'),
      rows: expect.arrayContaining([11_002, 12_000]),
    });
    expect(await current()).toEqual(before);
    const long = await send({ type: 'INCLUDE' }, xlsx(lines.map((l) => (l === '99999' ? '34000' : l))));
    expect(long.status).toBe(200);
    expect((await json<TargetingResponse>(long)).data.codes).toEqual(['01000', '30000', '34000']);
    // Beyond what is read: refused whole, never cut short.
    const sparse = XLSX.utils.aoa_to_sheet([['30000']]);
    XLSX.utils.sheet_add_aoa(sparse, [['01000']], { origin: 'A100001' });
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sparse, 'Codes');
    const tooLong = await send({ type: 'INCLUDE' }, new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer));
    expect(tooLong.status).toBe(422);
    expect((await json<{ message: string }>(tooLong)).message).toBe("Le fichier compte plus de 100 000 lignes : il est refusé, rien n'a été envoyé");
    expect(await current()).toEqual({ type: 'INCLUDE', codes: ['01000', '30000', '34000'] });
  });

  it('refuses a send that widens the campaign until it is confirmed, naming the targeting before and after', async () => {
    const before = await current();
    expect(before).toEqual({ type: 'INCLUDE', codes: ['01000', '30000', '34000'] });
    const sends = async () => (await server.ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'taboola.targeting'`)).rows.length;
    const logged = await sends();
    for (const [fields, after, change] of [
      [{ type: 'ALL' }, { type: 'ALL', count: 0 }, { added: 0, removed: 0, departements: { added: [], removed: [] } }],
      [
        { type: 'INCLUDE', codes: '30000 69001' },
        { type: 'INCLUDE', count: 2 },
        // 69001 added, 01000 and 34000 removed.
        { added: 1, removed: 2, departements: { added: ['69'], removed: ['01', '34'] } },
      ],
      [{ type: 'ALL', widen: 'yes' }, null, null],
    ] as const) {
      const res = await send(fields);
      if (after === null) {
        expect(res.status).toBe(422);
        continue;
      }
      expect(res.status, JSON.stringify(fields)).toBe(409);
      expect(await res.json()).toEqual({
        error: 'conflict',
        message: "Ce ciblage élargit la campagne : confirmez-le pour l'envoyer",
        widens: { before: { type: 'INCLUDE', count: 3 }, after, ...change },
      });
    }
    expect(await current()).toEqual(before);
    expect(await sends()).toBe(logged);
    // Fewer codes, or the same ones, widen nothing: sent at once.
    expect((await send({ type: 'INCLUDE', codes: '30000, 34000' })).status).toBe(200);
  });

  it('sets ALL without a file, and a list of codes as text', async () => {
    const all = await send({ type: 'ALL', widen: 'confirmed' });
    expect(await all.json()).toEqual({ data: { type: 'ALL', codes: [] }, sandbox: true, message: 'Codes postaux mis à jour' });
    const typed = await send({ type: 'INCLUDE', codes: '30000;30100\n1000' });
    expect((await json<TargetingResponse>(typed)).data).toEqual({ type: 'INCLUDE', codes: ['01000', '30000', '30100'] });
    // The same fields as JSON.
    const asJson = await server.request('POST', codesPath(), { token, body: { type: 'INCLUDE', codes: ['34000', '34070'], widen: 'confirmed' } });
    expect((await json<TargetingResponse>(asJson)).data.codes).toEqual(['34000', '34070']);
  });

  it("answers 'Erreur' for a bad type or INCLUDE without a list, and changes nothing", async () => {
    const before = await current();
    for (const [fields, field] of [
      [{ type: 'EXCLUDE' }, 'type'],
      [{ type: 'include' }, 'type'],
      [{}, 'type'],
      [{ type: 'INCLUDE' }, 'file'],
      [{ type: 'INCLUDE', codes: '  ' }, 'file'],
    ] as const) {
      const res = await send(fields);
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(await res.json()).toEqual({ error: 'validation_failed', message: 'Erreur', status: false, errors: { [field]: 'Erreur' } });
    }
    // A type given twice is no choice: refused, not the last one taken.
    const twice = new FormData();
    twice.append('type', 'INCLUDE');
    twice.append('type', 'ALL');
    const both = await fetch(server.url + codesPath(), { method: 'POST', body: twice, headers: { authorization: `Bearer ${token}` } });
    expect(both.status).toBe(422);
    expect((await json<{ errors: Record<string, string> }>(both)).errors).toEqual({ type: 'Erreur' });
    const empty = await send({ type: 'INCLUDE' }, new Uint8Array());
    expect(empty.status).toBe(422);
    const none = await send({ type: 'INCLUDE' }, xlsx(['Code postal']));
    expect((await json<{ message: string }>(none)).message).toBe('Aucun code postal dans la liste');
    expect(await current()).toEqual(before);
  });

  it('checks the file before parsing it: not an xlsx, a zip bomb, too big', async () => {
    const csv = await send({ type: 'INCLUDE' }, new TextEncoder().encode('30000\n34000\n'));
    expect(csv.status).toBe(422);
    expect((await json<{ message: string }>(csv)).message).toBe("Le fichier n'est pas un fichier xlsx");

    // A real xlsx whose directory declares 300 MB once inflated: refused before anything is inflated.
    const bomb = Buffer.from(xlsx(['30000']));
    for (let i = bomb.length - 22; i >= 0; i--) {
      if (bomb.readUInt32LE(i) === 0x06054b50) {
        const dir = bomb.readUInt32LE(i + 16);
        bomb.writeUInt32LE(300 * 1024 * 1024, dir + 24);
        break;
      }
    }
    const bombed = await send({ type: 'INCLUDE' }, bomb);
    expect(bombed.status).toBe(422);
    expect((await json<{ message: string }>(bombed)).message).toBe('Le fichier xlsx se décompresse en un contenu trop volumineux : il est refusé');

    const garbage = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(1000, 7)]);
    expect((await json<{ message: string }>(await send({ type: 'INCLUDE' }, garbage))).message).toBe('Le fichier xlsx est illisible');

    const huge = await send({ type: 'INCLUDE' }, new Uint8Array(6 * 1024 * 1024));
    expect(huge.status).toBe(413);
    expect((await json<{ error: string }>(huge)).error).toBe('payload_too_large');
  });

  it("gives every postal code of chosen departments ('Cibler des départements')", async () => {
    const res = await server.request('GET', '/api/taboola/departements/codes?departements=30,2a,01', { token });
    expect(res.status).toBe(200);
    const { data } = await json<DepartementCodesResponse>(res);
    const byDep = postalCodesByDepartement();
    expect(data.by_departement).toEqual({ '30': byDep.get('30')!.length, '2A': byDep.get('2A')!.length, '01': byDep.get('01')!.length });
    expect(data.codes).toContain('01000');
    expect(data.codes).toContain('20000');
    expect(data.codes).toEqual([...data.codes].sort());
    expect(new Set(data.codes).size).toBe(data.codes.length);
    // The list goes back as a send.
    const sent = await send({ type: 'INCLUDE', codes: data.codes.join(','), widen: 'confirmed' });
    expect(sent.status).toBe(200);

    for (const query of ['', '?departements=', '?departements=99', '?departements=30;34', '?departements=abc']) {
      const bad = await server.request('GET', `/api/taboola/departements/codes${query}`, { token });
      expect(bad.status, query).toBe(422);
      expect((await json<{ errors: Record<string, string> }>(bad)).errors).toHaveProperty('departements');
    }
  });

  it('answers 404 for an unknown account or campaign', async () => {
    for (const path of [
      '/api/taboola/campaigns/inconnu',
      '/api/taboola/campaigns/%3Cscript%3E',
      `/api/taboola/campaigns/${ACCOUNT}/999999/codes`,
      `/api/taboola/campaigns/${ACCOUNT}/abc/codes`,
      `/api/taboola/campaigns/solaire-rhone-alpes/${campaign}/codes`,
    ]) {
      const res = await server.request('GET', path, { token });
      expect(res.status, path).toBe(404);
    }
    expect((await send({ type: 'ALL' }, undefined, token, `/api/taboola/campaigns/${ACCOUNT}/999999/codes`)).status).toBe(404);
  });

  it('refuses a normal user with 403 on every Taboola route, and sends nothing', async () => {
    const staff = await normalUserToken(server);
    const before = await current();
    for (const path of ['/api/taboola/accounts', `/api/taboola/campaigns/${ACCOUNT}`, codesPath(), '/api/taboola/departements/codes?departements=30']) {
      const res = await server.request('GET', path, { token: staff });
      expect(res.status, path).toBe(403);
    }
    const post = await send({ type: 'ALL' }, undefined, staff);
    expect(post.status).toBe(403);
    expect(await post.json()).toEqual({ error: 'forbidden', message: 'Accès réservé aux administrateurs' });
    expect(await current()).toEqual(before);
  });
});
