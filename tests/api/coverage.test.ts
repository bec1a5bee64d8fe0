import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoverageState, DepartmentCoverage } from '../../src/api/productions/contract';
import type { CampaignLandings, Covered, TargetingResponse, WidensError } from '../../src/api/taboola/contract';
import { routeLeads } from '../../server/services/delivery/engine';
import { postalCodesByDepartement } from '../../server/services/geo';
import { startFakeBackstage } from './fake-backstage';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';
import { createCustomer, createRule, everyDay } from './lives-support';

// Issue 27, the coverage map: rules built through the API, routed sales made by the engine, and
// the coverage of chosen instants checked against this test's own reading of the rules; then a
// Taboola campaign (a fake Backstage, tests only) linked to the landing and targeted where it sells.
const CLIENT = { clientId: 'client-id-cov', clientSecret: 'cov-s3cret' };
let backstage: Awaited<ReturnType<typeof startFakeBackstage>>;
let server: TestServer;
let token: string;
let pac: { id: number };
let other: { id: number };

// Monday 2 March 2026, Paris = UTC+1 (summer time starts on the 29th).
const MONDAY_10H = '2026-03-02T09:00:00Z';
const rules: Record<string, number> = {};
let phoneSeq = 0;

async function sell(landingId: number, zip: string, at: string) {
  const [id] = await insertLeads(server.ctx.db, landingId, [
    { code_postal: zip, telephone: `07${String(10_000_000 + ++phoneSeq).padStart(8, '0')}`, created_at: at },
  ]);
  const outcome = (await routeLeads(server.ctx, { leads: [id], offeredAt: new Date(at), now: new Date(at) })).outcomes.get(id);
  expect(outcome).toBe('delivered');
}

async function coverageAt(at: string | null, landings: number[] = [pac.id], as = token) {
  const res = await server.request('GET', `/api/productions/pac/coverage?landings=${landings.join(',')}${at ? `&at=${encodeURIComponent(at)}` : ''}`, {
    token: as,
  });
  expect(res.status).toBe(200);
  const { data } = await json<{ data: DepartmentCoverage[] }>(res);
  return new Map(data.map((d) => [d.departement.slice(3), d]));
}
const statesAt = async (at: string, departements: string[], landings?: number[]) => {
  const map = await coverageAt(at, landings);
  return Object.fromEntries(departements.map((d) => [d, map.get(d)!.state]));
};

beforeAll(async () => {
  backstage = await startFakeBackstage(CLIENT);
  server = await startServer({ TABOOLA_CLIENT_ID: CLIENT.clientId, TABOOLA_CLIENT_SECRET: CLIENT.clientSecret, TABOOLA_API_URL: backstage.url });
  token = await server.login(ADMIN.email, ADMIN.password);
  pac = await createLanding(server.ctx.db, { category: 'pac' });
  other = await createLanding(server.ctx.db, { category: 'pac' });
  const rule = async (name: string, body: Record<string, unknown>, customer: Record<string, unknown> = {}, landing = pac.id) => {
    const customerId = await createCustomer(server, token, customer);
    rules[name] = (await createRule(server, token, { name, customer_id: customerId, landings: [landing], leads_number: 100, ...body })).id;
    return customerId;
  };
  const noDay = Object.fromEntries(Object.keys(everyDay).map((d) => [d, false]));
  await rule('gard', { zip: ['30'], hours: { start: '08:00', end: '18:00' } });
  await rule('hérault', { zip: ['34'], ...noDay, monday: true });
  await rule('bouches', { zip: ['13'], leads_number: 1 });
  await rule('gironde', { zip: ['33'], caps: { hour: 1, week: null, month: null } });
  await rule('alpes', { zip: ['06'] }, { default_price_cents: 1000, monthly_budget_cents: 1000 });
  await rule('rhône', { zip: ['69'], active: false });
  const paris = await rule('paris', { zip: ['75'] });
  await server.ctx.db.query('UPDATE customers SET active = false WHERE id = $1', [paris]);
  await rule('vaucluse', { zip: ['84000', '84100'] });
  await rule('loire', { zip: ['44'], filters: [{ column: 'source', op: 'eq', value: 'google' }] });
  await rule('nord', { zip: ['59'], ...noDay });
  await rule('finistère', { zip: ['29'] }, {}, other.id);
  // The day's sales that fill the Bouches-du-Rhône's day, the Gironde's hour and the Alpes' month.
  await sell(pac.id, '13001', '2026-03-02T09:05:00Z');
  await sell(pac.id, '33000', '2026-03-02T09:10:00Z');
  await sell(pac.id, '06000', '2026-03-02T09:15:00Z');
});
afterAll(async () => {
  await server.close();
  await backstage.close();
});

describe('coverage of a landing at chosen instants', () => {
  it('lists every department of the map with its state and counts', async () => {
    const map = await coverageAt(MONDAY_10H);
    expect(map.size).toBe(101);
    expect([...map.keys()].slice(0, 3)).toEqual(['01', '02', '03']);
    expect(map.get('30')).toEqual({ departement: 'FR-30', state: 'open', open_rules: 1, remaining_today: 100, unsold_today: 0 });
    expect(map.get('2A')!.state).toBe('none');
  });

  it('opens a rule within its hours, both ends included, in Paris time', async () => {
    const at = (utc: string) => statesAt(utc, ['30']).then((s) => s['30']);
    const expected: Array<[string, CoverageState]> = [
      ['2026-03-02T06:59:59Z', 'closed'], // 07:59 Paris
      ['2026-03-02T07:00:00Z', 'open'], // 08:00
      ['2026-03-02T17:00:59Z', 'open'], // 18:00:59, the last minute
      ['2026-03-02T17:01:00Z', 'closed'], // 18:01
      ['2026-07-06T15:30:00Z', 'open'], // 17:30 in summer time (UTC+2)
      ['2026-07-06T16:30:00Z', 'closed'], // 18:30
    ];
    for (const [instant, state] of expected) expect([instant, await at(instant)]).toEqual([instant, state]);
  });

  it('closes a rule on the days it is not ticked, and never opens one with no day', async () => {
    expect(await statesAt(MONDAY_10H, ['34', '59'])).toEqual({ '34': 'open', '59': 'none' });
    expect(await statesAt('2026-03-03T09:00:00Z', ['34', '59'])).toEqual({ '34': 'closed', '59': 'none' });
  });

  it('says full when a day or hour cap or the budget is reached, open again when its window turns', async () => {
    expect(await statesAt('2026-03-02T09:30:00Z', ['13', '33', '06'])).toEqual({ '13': 'full', '33': 'full', '06': 'full' });
    // Next hour: the hour cap is free again; the day's and the month's are not.
    expect(await statesAt('2026-03-02T10:00:00Z', ['13', '33', '06'])).toEqual({ '13': 'full', '33': 'open', '06': 'full' });
    // Next day: the day cap too; the budget is the month's.
    expect(await statesAt('2026-03-03T09:00:00Z', ['13', '33', '06'])).toEqual({ '13': 'open', '33': 'open', '06': 'full' });
    const april = await coverageAt('2026-04-01T08:00:00Z');
    expect(april.get('06')).toMatchObject({ state: 'open', open_rules: 1, remaining_today: 1 });
    expect(april.get('13')).toMatchObject({ state: 'open', remaining_today: 1 });
  });

  it('counts a paused rule or customer as no rule, a rule with filters as open', async () => {
    expect(await statesAt(MONDAY_10H, ['69', '75', '44'])).toEqual({ '69': 'none', '75': 'none', '44': 'open' });
  });

  it('covers the department of the postal codes a rule lists, and only those', async () => {
    expect(await statesAt(MONDAY_10H, ['84', '83'])).toEqual({ '84': 'open', '83': 'none' });
  });

  it('reads only the landings asked for, and the best state of theirs', async () => {
    expect(await statesAt(MONDAY_10H, ['29', '30'])).toEqual({ '29': 'none', '30': 'open' });
    expect(await statesAt(MONDAY_10H, ['29', '30'], [other.id])).toEqual({ '29': 'open', '30': 'none' });
    expect(await statesAt('2026-03-02T18:00:00Z', ['29', '30'], [pac.id, other.id])).toEqual({ '29': 'open', '30': 'closed' });
  });

  it("counts the day's leads still new until the instant, and sums the room of the open rules", async () => {
    const everywhere = await createLanding(server.ctx.db, { category: 'pac' });
    const customer = await createCustomer(server, token);
    await createRule(server, token, { name: 'partout', customer_id: customer, landings: [everywhere.id], leads_number: 7 });
    await createRule(server, token, { name: 'gard aussi', customer_id: customer, landings: [everywhere.id], zip: ['30'], leads_number: 5 });
    await insertLeads(server.ctx.db, everywhere.id, [
      { code_postal: '30900', created_at: '2026-03-01T23:30:00Z' }, // Monday 00:30 Paris
      { code_postal: '30000', created_at: '2026-03-02T08:00:00Z' },
      { code_postal: '30000', created_at: '2026-03-02T08:10:00Z', status: 'trashed' },
      { code_postal: '30000', created_at: '2026-03-02T09:30:00Z' }, // after the instant
      { code_postal: '30000', created_at: '2026-03-01T22:00:00Z' }, // Sunday 23:00 Paris
    ]);
    const map = await coverageAt(MONDAY_10H, [everywhere.id]);
    expect(map.get('30')).toEqual({ departement: 'FR-30', state: 'open', open_rules: 2, remaining_today: 12, unsold_today: 2 });
    expect(map.get('976')).toMatchObject({ state: 'open', open_rules: 1, remaining_today: 7, unsold_today: 0 });
    // Now, without `at`: every department has the rule everywhere.
    expect([...(await coverageAt(null, [everywhere.id])).values()].every((d) => d.state === 'open')).toBe(true);
  });

  it('answers any signed-in account', async () => {
    const staff = await normalUserToken(server);
    expect((await coverageAt(MONDAY_10H, [pac.id], staff)).get('30')!.state).toBe('open');
  });

  it('refuses bad input in French, never with a 500', async () => {
    const pv = await createLanding(server.ctx.db, { category: 'pv', name: 'Solaire Sud' });
    const cases: Array<[string, number, RegExp]> = [
      ['/api/productions/pac/coverage', 422, /Choisissez au moins une landing/],
      [`/api/productions/pac/coverage?landings=${pac.id}&at=demain`, 422, /Instant invalide/],
      [`/api/productions/pac/coverage?landings=${pac.id}&at=2026-03-02T25:00:00Z`, 422, /Instant invalide/],
      [`/api/productions/pac/coverage?landings=${pac.id}&at=2026-03-02`, 422, /Instant invalide/],
      [`/api/productions/pac/coverage?landings=x`, 422, /Choisissez au moins une landing/],
      [`/api/productions/pac/coverage?landings=${pv.id}`, 422, /Solaire Sud n'est pas de cette catégorie/],
      ['/api/productions/pac/coverage?landings=999999', 404, /.+/],
      [`/api/productions/velo/coverage?landings=${pac.id}`, 404, /Catégorie/],
    ];
    for (const [url, status, message] of cases) {
      const res = await server.request('GET', url, { token });
      expect([url, res.status]).toEqual([url, status]);
      // The message, or the field's own when the fields are named.
      expect(await res.text()).toMatch(message);
    }
  });
});

describe('Taboola buys where leads sell', () => {
  const campaign = '/api/taboola/campaigns/adv-one/101';
  const posts = () => backstage.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/targeting/postal_code'));
  const send = (fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return fetch(`${server.url}${campaign}/codes`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  };

  it('links a campaign to landings, an admin setting kept by the console', async () => {
    expect(await json(await server.request('GET', `${campaign}/landings`, { token }))).toEqual({ data: { landings: [] } });
    const noLanding = await server.request('GET', `${campaign}/covered`, { token });
    expect(noLanding.status).toBe(422);
    expect(await noLanding.text()).toMatch(/Aucune landing liée à cette campagne/);
    for (const [path, body, status] of [
      [`${campaign}/landings`, { landings: [999_999] }, 404],
      [`${campaign}/landings`, { landings: ['un'] }, 422],
      [`${campaign}/landings`, {}, 422],
      ['/api/taboola/campaigns/adv-one/999/landings', { landings: [pac.id] }, 404],
    ] as const) {
      const res = await server.request('PUT', path, { token, body });
      expect([path, JSON.stringify(body), res.status]).toEqual([path, JSON.stringify(body), status]);
    }
    const linked = await server.request('PUT', `${campaign}/landings`, { token, body: { landings: [pac.id, pac.id] } });
    expect(await json<{ data: CampaignLandings }>(linked)).toEqual({ data: { landings: [pac.id] } });
    expect((await json<{ data: CampaignLandings }>(await server.request('GET', `${campaign}/landings`, { token }))).data.landings).toEqual([pac.id]);
    const staff = await normalUserToken(server, 'staff-taboola@test.local');
    expect((await server.request('PUT', `${campaign}/landings`, { token: staff, body: { landings: [] } })).status).toBe(403);
  });

  it('builds the INCLUDE list of the open departments and its change, sending nothing until it is confirmed', async () => {
    const before = posts().length;
    const res = await server.request('GET', `${campaign}/covered?at=${MONDAY_10H}`, { token });
    expect(res.status).toBe(200);
    const { data } = await json<{ data: Covered }>(res);
    // Open at Monday 10:00 by the rules above: Gard, Hérault (Mondays), Loire-Atlantique (filters), Vaucluse (two codes).
    const open = ['30', '34', '44', '84'];
    const codes = open
      .flatMap((d) =>
        postalCodesByDepartement()
          .get(d)!
          .map((pc) => pc.code),
      )
      .sort();
    expect(data.departements).toEqual(open);
    expect(data.codes).toEqual(codes);
    // Backstage holds 01000 and 30000: 30000 stays, 01000 goes.
    expect(data.change).toEqual({
      before: { type: 'INCLUDE', count: 2 },
      after: { type: 'INCLUDE', count: codes.length },
      added: codes.length - 1,
      removed: 1,
      departements: { added: open, removed: ['01'] },
    });
    expect(posts().length).toBe(before);

    const unconfirmed = await send({ type: 'INCLUDE', codes: data.codes.join(',') });
    expect(unconfirmed.status).toBe(409);
    expect((await json<WidensError>(unconfirmed)).widens).toEqual(data.change);
    expect(posts().length).toBe(before);

    const confirmed = await send({ type: 'INCLUDE', codes: data.codes.join(','), widen: 'confirmed' });
    expect(confirmed.status).toBe(200);
    expect((await json<TargetingResponse>(confirmed)).data).toEqual({ type: 'INCLUDE', codes });
    expect(posts().length).toBe(before + 1);
    expect(JSON.parse(posts().at(-1)!.body)).toEqual({ type: 'INCLUDE', collection: codes });
  });

  it('names the change of a send to ALL, refused unconfirmed', async () => {
    const before = posts().length;
    const res = await send({ type: 'ALL' });
    expect(res.status).toBe(409);
    expect((await json<WidensError>(res)).widens).toMatchObject({ after: { type: 'ALL', count: 0 }, added: 0, removed: 0 });
    expect(posts().length).toBe(before);
  });
});
