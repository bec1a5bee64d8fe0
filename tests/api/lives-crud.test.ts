import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '../../src/api/customers/contract';
import type { Rule } from '../../src/api/rules/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json, normalUserToken } from './leads-support';

let server: TestServer;
let token: string;
let staff: string;
let landing: { id: number; key: string };
let other: { id: number; key: string };

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  staff = await normalUserToken(server);
  landing = await createLanding(server.ctx.db, { name: 'PAC Sud' });
  other = await createLanding(server.ctx.db, { name: 'PV Nord' });
});
afterAll(() => server.close());

const call = (method: string, path: string, body?: unknown, as = token) => server.request(method, path, { body, token: as });
const rulePayload = (customerId: number, extra: Record<string, unknown> = {}) => ({
  name: 'Gard matin',
  customer_id: customerId,
  landings: [landing.id],
  zip: ['30', '34000'],
  hours: { start: '08:00', end: '12:00' },
  leads_number: 15,
  monday: true,
  friday: true,
  ...extra,
});

describe('customers', () => {
  let customer: Customer;

  it('creates a customer (201 Client ajouté), lists it by name, email lower-cased', async () => {
    const res = await call('POST', '/api/customers', { name: '  Dupont - Jean ', email: 'Jean.Dupont@Example.FR' });
    expect(res.status).toBe(201);
    const body = await json<{ data: Customer; message: string }>(res);
    expect(body.message).toBe('Client ajouté');
    expect(body.data).toMatchObject({
      name: 'Dupont - Jean',
      email: 'jean.dupont@example.fr',
      active: true,
      webhook_url: null,
      webhook_secret: null,
      rules: [],
    });
    customer = body.data;
    await call('POST', '/api/customers', { name: 'Abeille', email: 'abeille@example.fr' });
    const list = await json<{ data: Customer[] }>(await call('GET', '/api/customers'));
    expect(list.data.map((c) => c.name)).toEqual(['Abeille', 'Dupont - Jean']);
  });

  it('refuses an email already used, whatever its case (409)', async () => {
    const res = await call('POST', '/api/customers', { name: 'Autre', email: 'JEAN.dupont@example.fr' });
    expect(res.status).toBe(409);
    expect(await json(res)).toMatchObject({ error: 'conflict', message: 'Un client existe déjà avec cette adresse email' });
    const patch = await call('PATCH', `/api/customers/${customer.id}`, { email: 'abeille@example.fr' });
    expect(patch.status).toBe(409);
  });

  it('answers 422 with status false and per-field messages for bad bodies', async () => {
    for (const body of [{}, { name: '', email: 'x' }, { name: 'a'.repeat(201), email: 'a@b.fr' }, { name: 3, email: ['a'] }, 'not json', [], null]) {
      const res = await server.request('POST', '/api/customers', {
        body,
        token,
        headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {},
      });
      expect([400, 422]).toContain(res.status);
      const answer = await json<{ error: string; status?: boolean; errors?: Record<string, string> }>(res);
      if (res.status === 422) expect(answer).toMatchObject({ error: 'validation_failed', status: false, errors: expect.any(Object) });
    }
    const res = await call('POST', '/api/customers', { name: '', email: 'nope' });
    expect(await json(res)).toMatchObject({ errors: { name: 'Nom requis', email: 'Adresse email invalide' } });
    const hook = await call('POST', '/api/customers', { name: 'W', email: 'w@x.fr', webhook_url: 'javascript:alert(1)' });
    expect(hook.status).toBe(422);
  });

  it('edits, pauses, sets a webhook with a signing key and rotates it', async () => {
    let res = await call('PATCH', `/api/customers/${customer.id}`, { active: false, webhook_url: 'https://crm.example.fr/leads' });
    expect(res.status).toBe(200);
    let body = await json<{ data: Customer; message: string }>(res);
    expect(body).toMatchObject({ message: 'Client modifié', data: { active: false, webhook_url: 'https://crm.example.fr/leads', name: 'Dupont - Jean' } });
    const secret = body.data.webhook_secret;
    expect(secret).toMatch(/^[\w-]{43}$/);
    res = await call('PATCH', `/api/customers/${customer.id}`, { rotate_webhook_secret: true, active: true });
    body = await json(res);
    expect(body.data.webhook_secret).not.toBe(secret);
    res = await call('PATCH', `/api/customers/${customer.id}`, { webhook_url: null });
    expect((await json<{ data: Customer }>(res)).data).toMatchObject({ webhook_url: null, webhook_secret: null });
  });

  it('answers 404 for unknown or malformed ids', async () => {
    for (const id of ['999999', 'abc', '0', '99999999999']) {
      const res = await call('PATCH', `/api/customers/${id}`, { name: 'X' });
      expect(res.status).toBe(404);
      expect(await json(res)).toMatchObject({ error: 'not_found', message: 'Client introuvable' });
    }
  });
});

describe('rules', () => {
  let customerId: number;
  let rule: Rule;

  beforeAll(async () => {
    customerId = (await json<{ data: Customer }>(await call('POST', '/api/customers', { name: 'Règles SARL', email: 'regles@example.fr' }))).data.id;
  });

  it('creates a rule (201 Règle ajoutée) with its landings by name and today’s fill', async () => {
    const res = await call('POST', '/api/customers/rules', rulePayload(customerId, { zip: ['30', '2a', '971', '34000', '30'] }));
    expect(res.status).toBe(201);
    const body = await json<{ status: boolean; data: Rule; message: string }>(res);
    expect(body).toMatchObject({
      status: true,
      message: 'Règle ajoutée',
      data: {
        name: 'Gard matin',
        customer_id: customerId,
        customer_name: 'Règles SARL',
        landings: [{ id: landing.id, name: 'PAC Sud' }],
        zip: ['30', '2A', '971', '34000'],
        hours: { start: '08:00', end: '12:00' },
        leads_number: 15,
        monday: true,
        tuesday: false,
        friday: true,
        active: true,
        today: { count: 0, leads_number: 15 },
      },
    });
    rule = body.data;
  });

  it('fills the defaults of docs/product.md §5: 20 leads a day, 00:00–23:59, everywhere, no day', async () => {
    const res = await call('POST', '/api/customers/rules', { name: 'Défauts', customer_id: customerId, landings: [{ id: other.id, name: 'PV Nord' }] });
    expect(res.status).toBe(201);
    expect((await json<{ data: Rule }>(res)).data).toMatchObject({
      leads_number: 20,
      hours: { start: '00:00', end: '23:59' },
      zip: [],
      monday: false,
      sunday: false,
      landings: [{ id: other.id }],
    });
  });

  it('lists all rules, or one customer’s (0 = all)', async () => {
    const all = await json<{ data: Rule[] }>(await call('GET', '/api/customers/rules'));
    expect(all.data.length).toBe(2);
    expect((await json<{ data: Rule[] }>(await call('GET', '/api/customers/rules?customer_id=0'))).data.length).toBe(2);
    const mine = await json<{ data: Rule[] }>(await call('GET', `/api/customers/rules?customer_id=${customerId}`));
    expect(mine.data.map((r) => r.name)).toEqual(['Défauts', 'Gard matin']);
    expect((await json<{ data: Rule[] }>(await call('GET', '/api/customers/rules?customer_id=424242'))).data).toEqual([]);
    expect((await call('GET', '/api/customers/rules?customer_id=abc')).status).toBe(422);
    const customers = await json<{ data: Customer[] }>(await call('GET', '/api/customers'));
    expect(customers.data.find((c) => c.id === customerId)?.rules.map((r) => r.name)).toEqual(['Défauts', 'Gard matin']);
  });

  it('answers 422 { status: false, errors } naming each faulty field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ leads_number: 0 }, 'leads_number'],
      [{ leads_number: 10001 }, 'leads_number'],
      [{ leads_number: 2.5 }, 'leads_number'],
      [{ leads_number: '20' }, 'leads_number'],
      [{ hours: { start: '24:00', end: '10:00' } }, 'hours.start'],
      [{ hours: { start: '8:00', end: '10:00' } }, 'hours.start'],
      [{ zip: ['300'] }, 'zip.0'],
      [{ zip: ['20'] }, 'zip.0'],
      [{ zip: ["30' OR 1=1 --"] }, 'zip.0'],
      [{ landings: [] }, 'landings'],
      [{ landings: [987654] }, 'landings'],
      [{ customer_id: 987654 }, 'customer_id'],
      [{ customer_id: undefined }, 'customer_id'],
      [{ name: '' }, 'name'],
      [{ monday: 'yes' }, 'monday'],
    ];
    for (const [change, field] of cases) {
      const res = await call('POST', '/api/customers/rules', rulePayload(customerId, change));
      expect(res.status, JSON.stringify(change)).toBe(422);
      const body = await json<{ status: boolean; error: string; message: string; errors: Record<string, string> }>(res);
      expect(body).toMatchObject({ status: false, error: 'validation_failed', message: 'Merci de vérifier les champs' });
      expect(Object.keys(body.errors), JSON.stringify(change)).toContain(field);
    }
    expect((await json<{ data: Rule[] }>(await call('GET', '/api/customers/rules'))).data.length).toBe(2);
  });

  it('answers 422, never 500, for ids beyond int4 in the payload, on creation and edit', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ customer_id: 2_147_483_648 }, 'customer_id'],
      [{ landings: [2_147_483_648] }, 'landings.0'],
      [{ landings: [{ id: 2_147_483_648, name: 'x' }] }, 'landings.0'],
    ];
    for (const [change, field] of cases) {
      for (const [method, path, body] of [
        ['POST', '/api/customers/rules', rulePayload(customerId, change)],
        ['PATCH', `/api/customers/rules/${rule.id}`, change],
      ] as const) {
        const res = await call(method, path, body);
        expect(res.status, `${method} ${JSON.stringify(change)}`).toBe(422);
        const errors = Object.keys((await json<{ errors: Record<string, string> }>(res)).errors);
        expect(
          errors.some((key) => key.startsWith(field)),
          errors.join(),
        ).toBe(true);
      }
    }
  });

  it('edits, pauses and resumes a rule; only the fields sent change', async () => {
    let res = await call('PATCH', `/api/customers/rules/${rule.id}`, { active: false });
    expect(await json(res)).toMatchObject({
      status: true,
      message: 'Règle modifiée',
      data: { active: false, name: 'Gard matin', zip: ['30', '2A', '971', '34000'] },
    });
    res = await call('PATCH', `/api/customers/rules/${rule.id}`, { active: true, hours: { start: '22:00', end: '06:00' }, zip: [], leads_number: 3 });
    expect((await json<{ data: Rule }>(res)).data).toMatchObject({
      active: true,
      hours: { start: '22:00', end: '06:00' },
      zip: [],
      leads_number: 3,
      monday: true,
    });
    expect((await call('PATCH', `/api/customers/rules/${rule.id}`, { leads_number: -1 })).status).toBe(422);
    expect((await call('PATCH', '/api/customers/rules/999999', { active: true })).status).toBe(404);
  });

  it('deletes a rule (Règle supprimée); its reports stay; a second delete is 404', async () => {
    const res = await call('DELETE', `/api/customers/rules/${rule.id}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ data: { id: rule.id }, message: 'Règle supprimée' });
    expect((await json<{ data: Rule[] }>(await call('GET', '/api/customers/rules'))).data.map((r) => r.id)).not.toContain(rule.id);
    expect((await call('DELETE', `/api/customers/rules/${rule.id}`)).status).toBe(404);
    const reports = await call('GET', `/api/rapports/rules/${rule.id}`);
    expect(reports.status).toBe(200);
    expect(await json(reports)).toMatchObject({ data: [], export: null, rule: { id: rule.id, name: 'Gard matin' } });
  });

  it('answers today’s fill for polling, and 204 when nothing changed', async () => {
    const res = await call('GET', '/api/customers/rules/today');
    const body = await json<{ date: string; version: string; data: Array<{ id: number; count: number }> }>(res);
    expect(body.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.data.length).toBe(1);
    const again = await call('GET', `/api/customers/rules/today?since=${encodeURIComponent(body.version)}`);
    expect(again.status).toBe(204);
  });
});

describe('reports and routing, bad input', () => {
  it('answers 404 for unknown reports, rules and leads', async () => {
    expect((await call('GET', '/api/rapports/rules/999999')).status).toBe(404);
    expect((await call('GET', '/api/rapports/rules/x')).status).toBe(404);
    expect((await call('GET', '/api/rapports/999999/file?format=csv')).status).toBe(404);
    expect((await call('GET', '/api/rapports/999999/deliveries')).status).toBe(404);
    expect((await call('GET', `/api/landings/data/${landing.id}/routing/999999`)).status).toBe(404);
  });

  it('refuses a normal user on every lives call (403)', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/customers'],
      ['POST', '/api/customers', { name: 'X', email: 'x@y.fr' }],
      ['PATCH', '/api/customers/1', { name: 'X' }],
      ['GET', '/api/customers/rules'],
      ['GET', '/api/customers/rules/today'],
      ['POST', '/api/customers/rules', {}],
      ['PATCH', '/api/customers/rules/1', {}],
      ['DELETE', '/api/customers/rules/1'],
      ['GET', '/api/rapports/rules/1'],
      ['GET', '/api/rapports/1/file?format=pdf'],
      ['GET', '/api/rapports/1/deliveries'],
      ['GET', `/api/landings/data/${landing.id}/routing/1`],
    ];
    for (const [method, path, body] of calls) {
      const res = await call(method, path, body, staff);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await json(res)).toMatchObject({ error: 'forbidden' });
      expect((await server.request(method, path, { body })).status, `${method} ${path} without token`).toBe(401);
    }
  });
});
