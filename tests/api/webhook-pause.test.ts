import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '../../src/api/customers/contract';
import type { NotificationsResponse } from '../../src/api/notifications/contract';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json, normalUserToken } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

let server: TestServer;
let token: string;
let hook: Server;
/** The lead id of every POST the customer's CRM received, and whether it accepted it. */
const posts: Array<{ lead: number; accepted: boolean }> = [];
let answer = 500;

beforeAll(async () => {
  // A customer's CRM that answers 500 until told otherwise.
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { lead: { id: number } };
      posts.push({ lead: body.lead.id, accepted: answer < 300 });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => hook.close(resolve));
});

const customerOf = async (id: number) =>
  (await json<{ data: Customer[] }>(await server.request('GET', '/api/customers', { token }))).data.find((c) => c.id === id)!;
const held = async (customerId: number) =>
  (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_held WHERE customer_id = $1', [customerId])).rows[0]!.n;

describe('a failing webhook', () => {
  it('pauses after 10 failures in a row, keeps the deliveries, alerts once, and sends them in order once resumed', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'PAC Pause' });
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/leads`;
    const customerId = await createCustomer(server, token, { name: 'CRM Capricieux', webhook_url: url });
    await createRule(server, token, { name: 'Partout', customer_id: customerId, landings: [landing.id] });

    const leads: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await server.request('POST', `/api/intake/${landing.key}`, {
        body: { nom: `Nom ${i}`, prenom: 'Léa', telephone: `06123456${String(10 + i)}`, code_postal: '34000', email: `lea${i}@example.fr` },
      });
      expect(res.status).toBe(201);
      leads.push((await json<{ data: { id: number } }>(res)).data.id);
    }

    // Each delivery retried with backoff: 10 failed attempts between them pause the webhook.
    await until(async () => (await customerOf(customerId)).webhook_paused_at !== null, 60_000, 'the pause');
    expect(posts.filter((p) => !p.accepted)).toHaveLength(10);
    // Every delivery still pending ends up kept, none is retried any more.
    await until(async () => (await held(customerId)) === leads.length, 60_000, 'every delivery kept');
    const failed = (
      await server.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM deliveries WHERE channel = 'webhook' AND status = 'failed' AND lead_id = ANY($1::int8[])`,
        [leads],
      )
    ).rows[0]!.n;
    expect(failed).toBe(10);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(posts).toHaveLength(10);

    const alerts = (await json<NotificationsResponse>(await server.request('GET', '/api/notifications', { token }))).data;
    expect(alerts.filter((a) => a.kind === 'webhook_paused')).toEqual([
      expect.objectContaining({ kind: 'webhook_paused', customer: { id: customerId, name: 'CRM Capricieux' }, read: false }),
    ]);

    // A normal user may not resume it; an unknown customer is 404; a webhook not paused is 409.
    const staff = await normalUserToken(server);
    expect((await server.request('POST', `/api/customers/${customerId}/webhook/resume`, { token: staff })).status).toBe(403);
    expect((await server.request('POST', '/api/customers/999999/webhook/resume', { token })).status).toBe(404);
    const healthy = await createCustomer(server, token, { name: 'CRM Sain', webhook_url: url });
    const notPaused = await server.request('POST', `/api/customers/${healthy}/webhook/resume`, { token });
    expect(notPaused.status).toBe(409);
    expect(await json(notPaused)).toMatchObject({ error: 'conflict', message: "Le webhook de ce client n'est pas en pause" });

    // The order they were first tried in is the order they are sent in.
    const order = (
      await server.ctx.db.query<{ lead_id: string }>('SELECT lead_id FROM webhook_held WHERE customer_id = $1 ORDER BY queued_at, lead_id', [customerId])
    ).rows.map((r) => Number(r.lead_id));
    answer = 200;
    const resumed = await server.request('POST', `/api/customers/${customerId}/webhook/resume`, { token });
    expect(resumed.status).toBe(200);
    expect(await json(resumed)).toEqual({ held: leads.length, message: `Webhook repris : ${leads.length} livraison(s) en attente envoyée(s) dans l'ordre` });
    await until(async () => posts.filter((p) => p.accepted).length === leads.length, 60_000, 'the kept deliveries');
    expect(posts.filter((p) => p.accepted).map((p) => p.lead)).toEqual(order);
    expect(new Set(order)).toEqual(new Set(leads));
    await until(async () => (await held(customerId)) === 0, 10_000, 'the last kept delivery done');
    expect(await customerOf(customerId)).toMatchObject({ webhook_paused_at: null });

    // Live again: the next lead goes straight through, and no second alert was raised.
    const res = await server.request('POST', `/api/intake/${landing.key}`, {
      body: { nom: 'Après', prenom: 'Paul', telephone: '0612345699', code_postal: '34000', email: 'paul@example.fr' },
    });
    const lead = (await json<{ data: { id: number } }>(res)).data.id;
    await until(async () => posts.some((p) => p.lead === lead && p.accepted), 30_000, 'the next lead');
    const after = (await json<NotificationsResponse>(await server.request('GET', '/api/notifications', { token }))).data;
    expect(after.filter((a) => a.kind === 'webhook_paused')).toHaveLength(1);
  });
});
