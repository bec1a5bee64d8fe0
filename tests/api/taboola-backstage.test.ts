import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TaboolaAccountsResponse, TaboolaCampaignsResponse, TargetingResponse } from '../../src/api/taboola/contract';
import { backstageProvider } from '../../server/services/taboola/backstage';
import { backstageError } from '../../server/services/taboola/errors';
import { startFakeBackstage } from './fake-backstage';
import { ADMIN, startServer, type TestServer } from './harness';
import { json } from './leads-support';

const CLIENT = { clientId: 'client-id-test', clientSecret: 'tr3s-s3cret-value' };

let backstage: Awaited<ReturnType<typeof startFakeBackstage>>;
let server: TestServer;
let token: string;

beforeAll(async () => {
  backstage = await startFakeBackstage(CLIENT);
  server = await startServer({ TABOOLA_CLIENT_ID: CLIENT.clientId, TABOOLA_CLIENT_SECRET: CLIENT.clientSecret, TABOOLA_API_URL: backstage.url });
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await server.close();
  await backstage.close();
});
beforeEach(() => backstage.setExpiresIn(43_200));

const get = (path: string) => server.request('GET', path, { token });
const send = (path: string, fields: Record<string, string>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return fetch(server.url + path, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
};

describe('Backstage client', () => {
  it('asks for a form-encoded client-credentials token once and reuses it', async () => {
    const before = backstage.tokenRequests();
    const accounts = await get('/api/taboola/accounts');
    expect(accounts.status).toBe(200);
    expect(await json<TaboolaAccountsResponse>(accounts)).toEqual({
      data: [
        { id: '1001', name: 'Annonceur Un', account_id: 'adv-one' },
        { id: '1002', name: 'Annonceur Deux', account_id: 'adv-two' },
      ],
      sandbox: false,
    });
    const campaigns = await json<TaboolaCampaignsResponse>(await get('/api/taboola/campaigns/adv-one'));
    expect(campaigns).toEqual({
      data: [
        { id: '101', name: 'Campagne PAC', advertiser_id: 'adv-one' },
        { id: '102', name: 'Campagne PV', advertiser_id: 'adv-one' },
      ],
      sandbox: false,
    });
    await Promise.all([get('/api/taboola/accounts'), get('/api/taboola/accounts'), get('/api/taboola/campaigns/adv-one')]);
    expect(backstage.tokenRequests() - before).toBeLessThanOrEqual(1);
    const tokenCall = backstage.calls.find((c) => c.path === '/backstage/oauth/token')!;
    expect(tokenCall.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenCall.body))).toEqual({
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      grant_type: 'client_credentials',
    });
    // The secret travels in the token request only.
    expect(backstage.calls.filter((c) => c.path !== '/backstage/oauth/token').some((c) => JSON.stringify(c).includes(CLIENT.clientSecret))).toBe(false);
  });

  it('renews the token shortly before it expires', async () => {
    backstage.setExpiresIn(2); // renewed after half its life when that is shorter than the margin
    backstage.revokeTokens();
    await get('/api/taboola/accounts'); // 401 → new token (2 s)
    const after = backstage.tokenRequests();
    await get('/api/taboola/accounts');
    expect(backstage.tokenRequests()).toBe(after);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await get('/api/taboola/accounts');
    expect(backstage.tokenRequests()).toBe(after + 1);
  });

  it('fetches a new token once on a 401, and stops there', async () => {
    await get('/api/taboola/accounts');
    backstage.revokeTokens();
    const before = backstage.tokenRequests();
    const res = await get('/api/taboola/accounts');
    expect(res.status).toBe(200);
    expect(backstage.tokenRequests()).toBe(before + 1);

    // Refused again after the renewal: no loop, a French message, no secret.
    backstage.fail(/allowed-accounts/, 401, 'application/json', JSON.stringify({ http_status: 401, message: 'Unauthorized' }), 2);
    const again = await get('/api/taboola/accounts');
    expect(again.status).toBe(502);
    const body = await json<{ error: string; message: string }>(again);
    expect(body.error).toBe('taboola_error');
    expect(body.message).toContain("Taboola refuse l'accès");
    expect(backstage.tokenRequests()).toBe(before + 2);
  });

  it('reads and sends postal codes as strings, leading zeros kept, and shows the list read back', async () => {
    const read = await json<TargetingResponse>(await get('/api/taboola/campaigns/adv-one/101/codes'));
    expect(read).toEqual({ data: { type: 'INCLUDE', codes: ['01000', '30000'] }, sandbox: false });

    // A Backstage list holding numbers (a zero already lost upstream) or a country prefix comes back as codes.
    backstage.targeting.set('adv-one/102', { type: 'INCLUDE', collection: [1000, 'FR-34000'] });
    expect((await json<TargetingResponse>(await get('/api/taboola/campaigns/adv-one/102/codes'))).data.codes).toEqual(['01000', '34000']);

    // Widening codes: read first, refused until confirmed, nothing posted meanwhile.
    const posts = () => backstage.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/postal_code')).length;
    const before = posts();
    const unconfirmed = await send('/api/taboola/campaigns/adv-one/101/codes', { type: 'INCLUDE', codes: '01000, 01090\n2000 30000' });
    expect(unconfirmed.status).toBe(409);
    expect(posts()).toBe(before);
    const res = await send('/api/taboola/campaigns/adv-one/101/codes', { type: 'INCLUDE', codes: '01000, 01090\n2000 30000', widen: 'confirmed' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: { type: 'INCLUDE', codes: ['01000', '01090', '02000', '30000'] },
      sandbox: false,
      message: 'Codes postaux mis à jour',
    });
    const posted = backstage.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/targeting/postal_code')).at(-1)!;
    expect(JSON.parse(posted.body)).toEqual({ type: 'INCLUDE', collection: ['01000', '01090', '02000', '30000'] });
    expect(posted.body).toContain('"01000"');

    const all = await send('/api/taboola/campaigns/adv-one/101/codes', { type: 'ALL', widen: 'confirmed' });
    expect((await all.json()).data).toEqual({ type: 'ALL', codes: [] });
    expect(JSON.parse(backstage.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/postal_code')).at(-1)!.body)).toEqual({
      type: 'ALL',
      collection: [],
    });
  });

  it('turns JSON, XML and HTML error bodies into French messages, and never answers the secret', async () => {
    const cases = [
      {
        status: 400,
        type: 'application/json',
        body: JSON.stringify({ http_status: 400, message: 'Invalid postal code list', offending_field: 'collection' }),
        expect: [502, 'Taboola a refusé la demande (erreur 400) (Taboola : Invalid postal code list — champ collection)'],
      },
      {
        status: 500,
        type: 'application/xml',
        body: '<?xml version="1.0"?><error><code>500</code><message>Internal failure &amp; retry</message></error>',
        expect: [502, 'Taboola est indisponible pour le moment (erreur 500), réessayez plus tard (Taboola : Internal failure retry)'],
      },
      {
        status: 503,
        type: 'text/html',
        body: '<html><head><title>503 Service Unavailable</title></head><body><script>alert(1)</script></body></html>',
        expect: [502, 'Taboola est indisponible pour le moment (erreur 503), réessayez plus tard (Taboola : 503 Service Unavailable)'],
      },
      {
        status: 429,
        type: 'text/plain',
        body: 'Too many requests',
        expect: [502, 'Taboola limite le nombre de requêtes : réessayez dans une minute (Taboola : Too many requests)'],
      },
    ] as const;
    for (const c of cases) {
      backstage.fail(/\/campaigns\/101\/targeting/, c.status, c.type, c.body);
      const res = await get('/api/taboola/campaigns/adv-one/101/codes');
      expect(res.status, c.type).toBe(c.expect[0]);
      expect(await res.json()).toEqual({ error: 'taboola_error', message: c.expect[1], taboola_status: c.status });
    }
    const unknown = await get('/api/taboola/campaigns/adv-three');
    expect(unknown.status).toBe(404);
    expect((await json<{ message: string }>(unknown)).message).toBe('Compte ou campagne introuvable chez Taboola (Taboola : Account adv-three not found)');

    // A token endpoint that echoes the secret in its error: scrubbed.
    backstage.revokeTokens();
    backstage.fail(/oauth\/token/, 400, 'application/json', JSON.stringify({ message: `client_secret ${CLIENT.clientSecret} is not valid` }));
    const leaked = await get('/api/taboola/accounts');
    expect(leaked.status).toBe(502);
    const text = await leaked.text();
    expect(text).not.toContain(CLIENT.clientSecret);
    expect(text).toContain('client_secret *** is not valid');
  });

  it('never answers a piece of the secret: cut by the detail length, or echoed form-encoded', async () => {
    // Backstage echoing the secret at the end of a long message: the detail is cut at 300 characters,
    // through the middle of the secret, and what is left of it must not show either.
    backstage.revokeTokens();
    backstage.fail(/oauth\/token/, 400, 'application/json', JSON.stringify({ message: `${'x'.repeat(290)} ${CLIENT.clientSecret}` }));
    const cut = await get('/api/taboola/accounts');
    expect(cut.status).toBe(502);
    expect(await cut.text()).not.toContain(CLIENT.clientSecret.slice(0, 6));
    // The token request's body is form-encoded: an echo of it holds the secret encoded.
    const secret = 'a+b/c=d&e f%g';
    for (const echoed of [new URLSearchParams({ client_secret: secret }).toString(), `client_secret=${encodeURIComponent(secret)}`]) {
      const err = backstageError(400, JSON.stringify({ message: `bad request: ${echoed}` }), 'application/json', [secret]);
      expect(err.message).toContain('client_secret=***');
      expect(err.message).not.toMatch(/a(\+|%2B)b/);
    }
  });

  it('says so when Backstage cannot be reached', async () => {
    const provider = backstageProvider({ ...CLIENT, apiUrl: 'http://127.0.0.1:1', log: { info() {}, warn() {} } });
    await expect(provider.accounts()).rejects.toMatchObject({
      status: 502,
      code: 'taboola_error',
      message: 'Impossible de joindre Taboola : vérifiez TABOOLA_API_URL et la connexion du serveur',
    });
  });

  it('checks the codes before anything is sent', async () => {
    const before = backstage.calls.length;
    const res = await send('/api/taboola/campaigns/adv-one/101/codes', { type: 'INCLUDE', codes: '30000 99999 ABCDE' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: 'validation_failed', unknown: ['99999', 'ABCDE'] });
    expect(backstage.calls.slice(before).filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});
