import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Customer } from '../../src/api/customers/contract';
import type { ReportsResponse } from '../../src/api/reports/contract';
import type { LeadSale } from '../../src/api/sales/contract';
import { standardWebhookSecret } from '../../server/services/delivery/standard-webhooks';
import { returnToken } from '../../server/services/sales/return-links';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const PUBLIC_URL = 'https://console.example';
let server: TestServer;
let token: string;
let smtp: SMTPServer;
const mails: string[] = [];
let hook: Server;
const posts: Received[] = [];
let phoneSeq = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  // A customer's receiver that fails its first post, then accepts.
  hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = posts.length === 1 ? 503 : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, PUBLIC_URL });
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise((resolve) => hook.close(resolve));
});

/** A lead sent to a landing's form and sold live by its rules; answers the lead and its (latest) sale. */
async function soldLead(landing: { key: string }, person: Record<string, string> = {}) {
  phoneSeq++;
  const res = await server.request('POST', `/api/intake/${landing.key}`, {
    body: { nom: 'Durand', prenom: 'Léa', telephone: `07${String(phoneSeq).padStart(8, '0')}`, code_postal: '34000', ...person },
  });
  expect(res.status).toBe(201);
  const leadId = (await json<{ data: { id: number } }>(res)).data.id;
  let sale: { id: number } | undefined;
  await until(
    async () => {
      sale = (await server.ctx.db.query<{ id: number }>('SELECT id::int FROM lead_sales WHERE lead_id = $1 ORDER BY id DESC', [leadId])).rows[0];
      return sale !== undefined;
    },
    30_000,
    'the sale',
  );
  return { leadId, saleId: sale!.id };
}

const salesOf = async (landingId: number, leadId: number) =>
  (await json<{ data: LeadSale[] }>(await server.request('GET', `/api/landings/data/${landingId}/sales/${leadId}`, { token }))).data;

const month = async (customerId: number) =>
  (
    await server.ctx.db.query<{ returns: number; credits_cents: number }>(
      `SELECT returns, credits_cents::int FROM customer_months WHERE customer_id = $1 AND month = date_trunc('month', now() AT TIME ZONE 'Europe/Paris')::date`,
      [customerId],
    )
  ).rows[0] ?? { returns: 0, credits_cents: 0 };

const returnSale = (saleId: number | string, body: unknown) => server.request('POST', `/api/sales/${saleId}/return`, { token, body });

/** The public return page, as a browser asks for it (HTML) or as a script does (JSON errors). */
const page = (path: string, init: { method?: string; form?: Record<string, string>; json?: unknown; ip?: string; html?: boolean } = {}) =>
  fetch(server.url + path, {
    method: init.method ?? (init.form || init.json ? 'POST' : 'GET'),
    headers: {
      ...(init.html === false ? {} : { accept: 'text/html,application/xhtml+xml' }),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : init.json ? { 'content-type': 'application/json' } : {}),
      'x-forwarded-for': init.ip ?? '198.51.100.1',
    },
    body: init.form ? new URLSearchParams(init.form).toString() : init.json ? JSON.stringify(init.json) : undefined,
  });

const linkOf = (saleId: number) => `/api/retours/${returnToken(server.ctx.config, saleId)}`;

describe('return links and Standard Webhooks on every delivery', () => {
  it('mails and posts return_url; the webhook verifies with the standardwebhooks library, its id stable across retries', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'PAC Hérault' });
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/leads`;
    const customerId = await createCustomer(server, token, { name: 'Signé Sud', webhook_url: hookUrl });
    await createRule(server, token, { customer_id: customerId, landings: [landing.id] });
    const { leadId, saleId } = await soldLead(landing);
    const url = `${PUBLIC_URL}${linkOf(saleId)}`;
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/api/retours/${saleId}\\.[A-Za-z0-9_-]{43}$`));

    // Quoted-printable may fold the link's long line: unfolded before reading.
    await until(async () => mails.some((m) => m.replace(/=\r?\n/g, '').includes(url)), 30_000, 'the mail with its return link');

    await until(async () => posts.length >= 2, 30_000, 'the webhook retry');
    const customer = (await json<{ data: Customer[] }>(await server.request('GET', '/api/customers', { token }))).data.find((c) => c.id === customerId)!;
    const verifier = new Webhook(standardWebhookSecret(customer.webhook_secret!));
    for (const post of posts) {
      const headers = Object.fromEntries(Object.entries(post.headers).map(([k, v]) => [k, String(v)]));
      expect(verifier.verify(post.body, headers)).toMatchObject({ event: 'lead.delivered', return_url: url, lead: { id: leadId } });
      // The signature of before, for its receivers, one more release.
      expect(headers['x-lead-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    }
    expect(new Set(posts.map((p) => p.headers['webhook-id']))).toEqual(new Set([`${leadId}-${JSON.parse(posts[0].body).report.id}`]));
    // A forged body fails the check.
    const headers = Object.fromEntries(Object.entries(posts[1].headers).map(([k, v]) => [k, String(v)]));
    expect(() => verifier.verify(posts[1].body.replace('Durand', 'Dupont'), headers)).toThrow();
  });
});

describe('POST /api/sales/:id/return', () => {
  it('returns a sale: reason kept, price credited on the month, the lead sold to another customer and never again to the returner', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'PAC Gard retours' });
    const first = await createCustomer(server, token, { name: 'Premier Acheteur' });
    await createRule(server, token, { customer_id: first, landings: [landing.id] });
    const { leadId, saleId } = await soldLead(landing);
    await server.ctx.db.query('UPDATE lead_sales SET price_cents = 1250 WHERE id = $1', [saleId]);
    const second = await createCustomer(server, token, { name: 'Second Acheteur' });
    await createRule(server, token, { customer_id: second, landings: [landing.id] });
    const before = await month(first);

    const res = await returnSale(saleId, { reason: 'wrong_number', comment: '  numéro non attribué ' });
    expect(res.status).toBe(200);
    expect((await json<{ data: unknown }>(res)).data).toMatchObject({ id: saleId, lead_id: leadId, return_reason: 'wrong_number', credit_cents: 1250 });
    expect(await month(first)).toEqual({ returns: before.returns + 1, credits_cents: before.credits_cents + 1250 });
    const stored = await server.ctx.db.query('SELECT return_reason, return_comment FROM lead_sales WHERE id = $1', [saleId]);
    expect(stored.rows[0]).toEqual({ return_reason: 'wrong_number', return_comment: 'numéro non attribué' });
    const audit = await server.ctx.db.query(`SELECT user_id, details->>'by' AS by FROM audit_log WHERE action = 'sales.return' AND details->>'sale_id' = $1`, [
      String(saleId),
    ]);
    expect(audit.rows).toEqual([{ user_id: expect.any(Number), by: 'admin' }]);

    // Offered again at once, to the other customer only.
    await until(async () => (await salesOf(landing.id, leadId)).some((s) => s.customer.id === second), 30_000, 'the sale to the other customer');
    const sales = await salesOf(landing.id, leadId);
    expect(sales.map((s) => [s.customer.id, s.return_reason])).toEqual([
      [first, 'wrong_number'],
      [second, null],
    ]);
    const lead = await server.ctx.db.query('SELECT entry_status, sold_to FROM leads WHERE id = $1', [leadId]);
    expect(lead.rows[0]).toEqual({ entry_status: 'extracted', sold_to: 'Second Acheteur' });

    // The second returns it too: offered again, to nobody (the first bought the person within its dedupe window).
    const again = await returnSale(sales[1].id, { reason: 'unreachable' });
    expect(again.status).toBe(200);
    await until(
      async () => (await server.ctx.db.query(`SELECT 1 FROM lead_routings WHERE lead_id = $1 AND outcome = 'unmatched'`, [leadId])).rows.length === 1,
      30_000,
      'the second offer',
    );
    expect((await salesOf(landing.id, leadId)).map((s) => s.customer.id)).toEqual([first, second]);
    expect((await server.ctx.db.query('SELECT entry_status, sold_to FROM leads WHERE id = $1', [leadId])).rows[0]).toEqual({
      entry_status: 'new',
      sold_to: null,
    });
  });

  it('refuses twice, out of the window, without returns, past the return rate, and bad input; nothing changes', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'PAC Aude retours' });
    const customer = await createCustomer(server, token, { name: 'Acheteur Strict' });
    const rule = await createRule(server, token, { customer_id: customer, landings: [landing.id] });
    const a = await soldLead(landing);
    const b = await soldLead(landing);
    const c = await soldLead(landing);
    await server.ctx.db.query('UPDATE lead_sales SET price_cents = 1000 WHERE id = ANY($1::bigint[])', [[a.saleId, b.saleId, c.saleId]]);
    const message = async (res: Response) => (await json<{ message: string }>(res)).message;

    expect((await returnSale(a.saleId, { reason: 'duplicate' })).status).toBe(200);
    const twice = await returnSale(a.saleId, { reason: 'duplicate' });
    expect(twice.status).toBe(409);
    expect(await message(twice)).toBe('Cette vente a déjà été retournée');

    // Sold 7 days and a minute ago, with the default 7-day window.
    await server.ctx.db.query(`UPDATE lead_sales SET sold_at = now() - interval '7 days 1 minute' WHERE id = $1`, [b.saleId]);
    const late = await returnSale(b.saleId, { reason: 'unreachable' });
    expect(late.status).toBe(409);
    expect(await message(late)).toBe('Délai de retour dépassé');
    await server.ctx.db.query('UPDATE customers SET return_days = 0 WHERE id = $1', [customer]);
    const none = await returnSale(c.saleId, { reason: 'unreachable' });
    expect(await message(none)).toBe('Délai de retour dépassé');

    // 2 returns of 3 sales this month pass 50 %: the late sale sold this month again (just before
    // a's), whatever the day: in a month's first week, a week ago was the month before.
    await server.ctx.db.query(`UPDATE lead_sales SET sold_at = (SELECT sold_at - interval '1 second' FROM lead_sales WHERE id = $2) WHERE id = $1`, [
      b.saleId,
      a.saleId,
    ]);
    await server.ctx.db.query('UPDATE customers SET return_days = 7, max_return_rate = 50 WHERE id = $1', [customer]);
    const before = await month(customer);
    const rate = await returnSale(c.saleId, { reason: 'out_of_area' });
    expect(rate.status).toBe(409);
    expect(await message(rate)).toBe('Taux de retour dépassé');
    expect(await month(customer)).toEqual(before);
    const kept = await server.ctx.db.query(
      'SELECT s.returned_at, l.entry_status FROM lead_sales s JOIN leads l ON l.id = s.lead_id WHERE s.id = ANY($1::bigint[]) ORDER BY s.id',
      [[b.saleId, c.saleId]],
    );
    expect(kept.rows).toEqual([
      { returned_at: null, entry_status: 'extracted' },
      { returned_at: null, entry_status: 'extracted' },
    ]);
    // The admins are alerted once a day per customer, however many returns are refused.
    expect((await returnSale(c.saleId, { reason: 'out_of_area' })).status).toBe(409);
    const alerts = await server.ctx.db.query(`SELECT params FROM alerts WHERE kind = 'return_rate_exceeded'`);
    expect(alerts.rows).toEqual([{ params: { customer_id: customer, rate: 66.7 } }]);

    for (const [body, field] of [
      [{ reason: 'nope' }, 'reason'],
      [{}, 'reason'],
      [{ reason: 'other' }, 'comment'],
      [{ reason: 'other', comment: '   ' }, 'comment'],
      [{ reason: 'other', comment: 'x'.repeat(1001) }, 'comment'],
      [{ reason: 'duplicate', comment: 42 }, 'comment'],
    ] as const) {
      const res = await returnSale(c.saleId, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(Object.keys((await json<{ errors: Record<string, string> }>(res)).errors)).toEqual([field]);
    }
    for (const id of ['999999999', 'abc', '0', '1.5']) {
      const res = await returnSale(id, { reason: 'duplicate' });
      expect(res.status, id).toBe(404);
      expect(await message(res)).toBe('Vente introuvable');
    }
    expect(await month(customer)).toEqual(before);

    // The day's report: delivered, returned, and what the sales still standing sold for.
    const reports = await json<ReportsResponse>(await server.request('GET', `/api/rapports/rules/${rule.id}`, { token }));
    expect(reports.data[0]).toMatchObject({ count: 3, returned: 1, amount_cents: 2000 });
    const daySales = await json<{ data: LeadSale[] }>(await server.request('GET', `/api/rapports/${reports.data[0].id}/sales`, { token }));
    // Oldest sale first: b's was moved before a's.
    expect(daySales.data.map((s) => [s.id, s.lead_id, s.return_reason])).toEqual([
      [b.saleId, b.leadId, null],
      [a.saleId, a.leadId, 'duplicate'],
      [c.saleId, c.leadId, null],
    ]);
    expect((await server.request('GET', '/api/rapports/999999/sales', { token })).status).toBe(404);
  });

  it('credits a re-injected export on its buyer’s month', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'PAC export crédité' });
    const customer = await createCustomer(server, token, { name: 'Client Crédité' });
    const ids = await insertLeads(
      server.ctx.db,
      landing.id,
      [0, 1, 2].map((i) => ({ telephone: `060000009${i}`, code_postal: '30000' })),
    );
    const res = await server.request('POST', `/api/landings/data/${landing.id}/export`, {
      token,
      body: { bookType: 'csv', leads: ids, for_customer: 'Client Crédité' },
    });
    expect(res.status).toBe(200);
    const { rows } = await server.ctx.db.query<{ export_id: number }>(
      'UPDATE lead_sales SET price_cents = 700 WHERE lead_id = ANY($1::bigint[]) RETURNING export_id',
      [ids],
    );
    const before = await month(customer);
    expect((await server.request('POST', `/api/exports/insert/${rows[0].export_id}`, { token })).status).toBe(200);
    expect(await month(customer)).toEqual({ returns: before.returns + 3, credits_cents: before.credits_cents + 2100 });
  });
});

describe('the public return page', () => {
  it('shows the sale to its link alone, returns it as the admin call does, and refuses what the call refuses', async () => {
    const landing = await createLanding(server.ctx.db, { name: 'PAC Lozère retours' });
    const customer = await createCustomer(server, token, { name: 'Client Lien' });
    await createRule(server, token, { customer_id: customer, landings: [landing.id] });
    const mine = await soldLead(landing, { email: 'lea.secret@example.fr' });
    const other = await soldLead(landing);

    const opened = await page(linkOf(mine.saleId));
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toMatch(/^text\/html/);
    expect(opened.headers.get('content-security-policy')).toMatch(/default-src 'none'; style-src 'sha256-[^']+'/);
    const html = await opened.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain(`n° ${mine.leadId}`);
    expect(html).toContain('Léa Durand');
    for (const label of ['Faux numéro', 'Injoignable', 'Doublon', 'Hors zone', 'Déjà client', 'Autre', 'Retourner ce lead']) expect(html).toContain(label);
    // Nothing the link does not need: neither the phone nor the email of the lead.
    expect(html).not.toMatch(/07\d{8}|lea\.secret/);
    expect(html).not.toContain('<script');

    // Another sale's id with this sale's MAC, a forged MAC, a malformed token: 404.
    const mac = returnToken(server.ctx.config, mine.saleId).split('.')[1];
    for (const forged of [`${other.saleId}.${mac}`, `${mine.saleId}.${'A'.repeat(43)}`, `${mine.saleId}`, 'x']) {
      const res = await page(`/api/retours/${forged}`);
      expect(res.status, forged).toBe(404);
      expect(await res.text()).toContain('Ce lien de retour est introuvable');
      const script = await page(`/api/retours/${forged}`, { html: false });
      expect(await script.json()).toEqual({ error: 'not_found', message: 'Ce lien de retour est introuvable' });
      expect((await page(`/api/retours/${forged}`, { form: { reason: 'duplicate' } })).status).toBe(404);
    }

    const noComment = await page(linkOf(mine.saleId), { form: { reason: 'other', comment: '' } });
    expect(noComment.status).toBe(422);
    const refusedHtml = await noComment.text();
    expect(refusedHtml).toContain('Précisez la raison du retour');
    expect(refusedHtml).toContain('value="other" required checked');

    const done = await page(linkOf(mine.saleId), { form: { reason: 'unreachable' } });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Le lead est retourné');
    const sale = await server.ctx.db.query(
      `SELECT s.return_reason, a.user_id FROM lead_sales s JOIN audit_log a ON a.action = 'sales.return' AND a.details->>'sale_id' = s.id::text WHERE s.id = $1`,
      [mine.saleId],
    );
    expect(sale.rows).toEqual([{ return_reason: 'unreachable', user_id: null }]);
    const twice = await page(linkOf(mine.saleId), { form: { reason: 'unreachable' } });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain('Cette vente a déjà été retournée');

    // A script posts JSON and reads the admin call's answers.
    await server.ctx.db.query(`UPDATE lead_sales SET sold_at = now() - interval '8 days' WHERE id = $1`, [other.saleId]);
    const late = await page(linkOf(other.saleId));
    expect(late.status).toBe(409);
    const lateHtml = await late.text();
    expect(lateHtml).toContain('Délai de retour dépassé');
    expect(lateHtml).not.toContain('<form');
    const lateScript = await page(linkOf(other.saleId), { json: { reason: 'duplicate' }, html: false });
    expect(await lateScript.json()).toEqual({ error: 'conflict', message: 'Délai de retour dépassé' });
  });

  it('is throttled per address: 30 opens or posts a minute', async () => {
    for (let i = 0; i < 30; i++) expect((await page('/api/retours/1.x', { ip: '203.0.113.77' })).status).toBe(404);
    const refused = await page('/api/retours/1.x', { ip: '203.0.113.77' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.text()).toContain('Trop de requêtes');
    expect((await page('/api/retours/1.x', { ip: '203.0.113.78' })).status).toBe(404);
  });
});
