import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '../../src/api/customers/contract';
import type { DeliveriesResponse, ReportsResponse } from '../../src/api/reports/contract';
import { deliverBatch } from '../../server/services/delivery/deliver';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: TestServer;
let token: string;
let smtp: SMTPServer;
const mails: Array<{ to: string; text: string }> = [];
let hook: Server;
const posts: Received[] = [];

beforeAll(async () => {
  // A local SMTP server standing for the customers' mail.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), text: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  // A customer's CRM that fails twice, then accepts.
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = posts.length <= 2 ? 503 : 200;
      res.end(posts.length <= 2 ? 'indisponible' : 'ok');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));

  server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise((resolve) => hook.close(resolve));
});

describe('delivery to the customer', () => {
  it('mails the lead through SMTP and posts it, signed, to the webhook until it accepts; every attempt logged; never twice', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'PAC Occitanie' });
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/leads`;
    const customerId = await createCustomer(server, token, { name: 'Chauffage Martin', email: 'martin@chauffage.example', webhook_url: hookUrl });
    const customer = (await json<{ data: Customer[] }>(await server.request('GET', '/api/customers', { token }))).data.find((c) => c.id === customerId)!;
    const rule = await createRule(server, token, { name: 'Occitanie', customer_id: customerId, landings: [landing.id], zip: ['30', '34'] });

    const res = await server.request('POST', `/api/intake/${landing.key}`, {
      body: { nom: 'Durand', prenom: 'Léa', telephone: '0612345678', code_postal: '34000', email: 'lea@example.fr' },
    });
    expect(res.status).toBe(201);
    const leadId = (await json<{ data: { id: number } }>(res)).data.id;

    await until(async () => mails.length >= 1, 30_000, 'the mail');
    expect(mails[0].to).toBe('martin@chauffage.example');
    expect(mails[0].text).toContain('Durand');
    expect(mails[0].text).toContain('0612345678');
    expect(mails[0].text).toMatch(/Occitanie/);

    await until(async () => posts.length >= 3, 60_000, 'the third webhook attempt');
    const accepted = posts[2];
    const expected = createHmac('sha256', customer.webhook_secret!).update(accepted.body).digest('hex');
    expect(accepted.headers['x-lead-signature']).toBe(`sha256=${expected}`);
    expect(accepted.headers['content-type']).toBe('application/json');
    expect(new Set(posts.map((p) => p.headers['x-lead-delivery']))).toEqual(new Set([accepted.headers['x-lead-delivery']]));
    const payload = JSON.parse(accepted.body) as {
      event: string;
      lead: { id: number; fields: Record<string, string>; landing: { name: string } };
      rule: { id: number };
    };
    expect(payload).toMatchObject({
      event: 'lead.delivered',
      lead: { id: leadId, fields: { nom: 'Durand', code_postal: '34000' }, landing: { name: 'PAC Occitanie' } },
      rule: { id: rule.id },
    });

    const reports = await json<ReportsResponse>(await server.request('GET', `/api/rapports/rules/${rule.id}`, { token }));
    const reportId = reports.data[0].id;
    expect(reports.data[0]).toMatchObject({ count: 1, leads: [leadId] });
    let log: DeliveriesResponse['data'] = [];
    await until(
      async () => {
        log = (await json<DeliveriesResponse>(await server.request('GET', `/api/rapports/${reportId}/deliveries`, { token }))).data;
        return log.filter((a) => a.channel === 'webhook').length === 3;
      },
      10_000,
      'the log',
    );
    const webhook = log.filter((a) => a.channel === 'webhook').reverse();
    expect(webhook.map((a) => [a.attempt, a.status, a.http_status, a.will_retry])).toEqual([
      [1, 'failed', 503, true],
      [2, 'failed', 503, true],
      [3, 'sent', 200, false],
    ]);
    expect(webhook[0].error).toBe('Le webhook a répondu 503');
    expect(log.filter((a) => a.channel === 'mail').map((a) => [a.status, a.target])).toEqual([['sent', 'martin@chauffage.example']]);

    // A job run again (a retry after a crash, another instance) delivers nothing more.
    const again = await deliverBatch(server.ctx, [
      { lead: leadId, report: reportId, channel: 'mail' },
      { lead: leadId, report: reportId, channel: 'webhook' },
    ]);
    expect(again.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(mails.length).toBe(1);
    expect(posts.length).toBe(3);
  });

  it('refuses to sign a webhook without a secret: nothing posted, the attempt logged as failed', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'PAC Gard' });
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/leads`;
    const customerId = await createCustomer(server, token, { name: 'Sans Secret', email: 'sans@secret.example', webhook_url: hookUrl });
    // A customer saved before webhooks had secrets.
    await server.ctx.db.query('UPDATE customers SET webhook_secret = NULL WHERE id = $1', [customerId]);
    const rule = await createRule(server, token, { name: 'Gard', customer_id: customerId, landings: [landing.id], zip: ['30'] });
    const posted = posts.length;
    const res = await server.request('POST', `/api/intake/${landing.key}`, {
      body: { nom: 'Roux', prenom: 'Paul', telephone: '0612345679', code_postal: '30000', email: 'paul@example.fr' },
    });
    expect(res.status).toBe(201);
    let log: DeliveriesResponse['data'] = [];
    await until(
      async () => {
        // The report appears once the engine has routed the lead.
        const id = (await json<ReportsResponse>(await server.request('GET', `/api/rapports/rules/${rule.id}`, { token }))).data[0]?.id;
        if (!id) return false;
        log = (await json<DeliveriesResponse>(await server.request('GET', `/api/rapports/${id}/deliveries`, { token }))).data;
        return log.some((a) => a.channel === 'webhook');
      },
      30_000,
      'the webhook attempt',
    );
    const webhook = log.filter((a) => a.channel === 'webhook');
    expect(webhook[0]).toMatchObject({
      status: 'failed',
      http_status: null,
      error: "Webhook sans secret : la livraison ne peut pas être signée, elle n'est pas envoyée",
    });
    expect(posts.length).toBe(posted);
  });
});
