import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseOf } from '../../src/api/endpoint';
import type { leadsApi } from '../../src/api/leads/endpoints';

type ExportResponse = ResponseOf<typeof leadsApi.export>;
import type { ReportsResponse } from '../../src/api/reports/contract';
import type { Rule } from '../../src/api/rules/contract';
import type { LeadSale } from '../../src/api/sales/contract';
import { personOf } from '../../server/services/sales/person';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, formColumns, insertLeads, json, normalUserToken } from './leads-support';
import { createCustomer, createRule } from './lives-support';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const db = () => server.ctx.db;
const sales = async (landingId: number, leadId: number, as = token) => server.request('GET', `/api/landings/data/${landingId}/sales/${leadId}`, { token: as });
const salesOf = async (landingId: number, leadId: number) => (await json<{ data: LeadSale[] }>(await sales(landingId, leadId))).data;
const exportLeads = (landingId: number, body: Record<string, unknown>) =>
  server.request('POST', `/api/landings/data/${landingId}/export`, { token, body: { bookType: 'csv', ...body } });
const leadRow = async (id: number) =>
  (
    await db().query<{ entry_status: string; sold_to: string | null; export_id: number | null; rapport_id: number | null }>(
      'SELECT entry_status, sold_to, export_id, rapport_id FROM leads WHERE id = $1',
      [id],
    )
  ).rows[0];

/**
 * A live sale as the delivery engine writes it in its claim (server/services/delivery/engine.ts,
 * the engine's branch): the rule's report of that Paris day counts it, the lead is extracted and
 * its latest sale points to the report, and the sale is a lead_sales row with the person.
 */
async function sellLive(leadId: number, rule: Rule, day: string, at: string) {
  return db().tx(async (q) => {
    const report = (
      await q.query<{ id: number }>(
        `INSERT INTO reports AS rep (rule_id, date, leads_number, count, zip, last_delivery_at) VALUES ($1, $2, $3, 1, '{}', $4)
         ON CONFLICT (rule_id, date) DO UPDATE SET count = rep.count + 1, last_delivery_at = EXCLUDED.last_delivery_at RETURNING id`,
        [rule.id, day, rule.leads_number, at],
      )
    ).rows[0].id;
    const lead = (
      await q.query<{ data: Record<string, unknown>; customer: string }>(
        `UPDATE leads SET entry_status = 'extracted', sold_to = (SELECT name FROM customers WHERE id = $3), rapport_id = $2, updated_at = now()
          WHERE id = $1 RETURNING data, (SELECT name FROM customers WHERE id = $3) AS customer`,
        [leadId, report, rule.customer_id],
      )
    ).rows[0];
    const person = personOf(lead.data, formColumns);
    await q.query(
      `INSERT INTO lead_sales (lead_id, customer_id, rule_id, report_id, channel, price_cents, phone, email, sold_at)
       VALUES ($1, $2, $3, $4, 'live', 0, $5, $6, $7)`,
      [leadId, rule.customer_id, rule.id, report, person.phone, person.email, at],
    );
    return report;
  });
}

describe('the migration of past sales (082, record_past_sales)', () => {
  it('reads the person in SQL exactly as personOf does', async () => {
    const phones = ['+33 6 12 34 56 78', '0033 6 12 34 56 78', '33612345678', '3312345678', '06.12.34.56.78', 'aucun', '', '٠٦١٢'];
    const emails = [' Jean@Exemple.FR', '\u00a0a@b.fr\n', '\u2003\ufeffX@Y.fr\u3000', '   ', 'Ünïcode@Exemple.fr'];
    const { rows } = await db().query<{ phone: string | null; email: string | null }>(
      `SELECT person_phone(p) AS phone, person_email(e) AS email FROM unnest($1::text[], $2::text[]) AS t(p, e)`,
      [phones, [...emails, ...Array(phones.length - emails.length).fill(null)]],
    );
    expect(rows).toEqual(phones.map((p, i) => personOf({ telephone: p, email: emails[i] ?? null }, formColumns)));
  });

  it('turns reports and exports to a named customer into sales, once', async () => {
    const landing = await createLanding(db(), { name: 'Landing migrée' });
    const buyer = await createCustomer(server, token, { name: 'Rénov’Expert Sud' });
    const other = await createCustomer(server, token, { name: 'Isol Plus' });
    const rule = await createRule(server, token, { name: 'Gard migré', customer_id: other, landings: [landing.id] });
    const [routed, unrouted, exported, unknownBuyer, bigExported, fromReport, untouched] = await insertLeads(db(), landing.id, [
      { telephone: '+33 6 12 34 56 78', email: ' Jean@Exemple.FR' },
      { telephone: '06 00 00 00 01' },
      { telephone: '0033 7 00 00 00 02', email: 'Paul@exemple.fr' },
      {},
      {},
      { email: 'rapport@exemple.fr' },
      {},
    ]);
    const report = (
      await db().query<{ id: number }>(
        `INSERT INTO reports (rule_id, date, leads_number, count, last_delivery_at) VALUES ($1, '2026-03-02', 10, 2, '2026-03-02T16:00:00Z') RETURNING id`,
        [rule.id],
      )
    ).rows[0].id;
    const newExport = async (forCustomer: string | null, big = false) =>
      (
        await db().query<{ id: number }>(
          `INSERT INTO exports (token, landing_ids, filename, book_type, for_customer, big_export, created_at)
           VALUES ($1, $2, 'x.csv', 'csv', $3, $4, '2026-03-05T09:00:00Z') RETURNING id`,
          [randomBytes(16).toString('hex'), [landing.id], forCustomer, big],
        )
      ).rows[0].id;
    const named = await newExport("RENOV'EXPERT  sud");
    const unknown = await newExport('Inconnu SARL');
    const big = await newExport('Rénov’Expert Sud', true);
    const ofReport = await newExport(null);
    const link = (ids: number[], set: string, value: number) =>
      db().query(`UPDATE leads SET entry_status = 'extracted', ${set} = $2 WHERE id = ANY($1::bigint[])`, [ids, value]);
    await link([routed, unrouted, fromReport], 'rapport_id', report);
    await link([exported], 'export_id', named);
    await link([unknownBuyer], 'export_id', unknown);
    await link([bigExported], 'export_id', big);
    await link([fromReport], 'export_id', ofReport);
    await db().query(
      `INSERT INTO lead_routings (lead_id, landing_id, outcome, rule_id, report_id, paris_time, decided_at)
       VALUES ($1, $2, 'delivered', $3, $4, '2026-03-02 10:15 monday', '2026-03-02T09:15:00Z')`,
      [routed, landing.id, rule.id, report],
    );

    const recorded = (await db().query<{ n: number }>('SELECT record_past_sales() AS n')).rows[0].n;
    expect(recorded).toBe(4);
    const rows = (
      await db().query<{ lead_id: number; customer_id: number; rule_id: number | null; report_id: number | null; export_id: number | null }>(
        `SELECT lead_id, customer_id, rule_id, report_id, export_id, channel, phone, email, to_json(sold_at) #>> '{}' AS sold_at
           FROM lead_sales WHERE lead_id = ANY($1::bigint[]) ORDER BY lead_id`,
        [[routed, unrouted, exported, unknownBuyer, bigExported, fromReport, untouched]],
      )
    ).rows;
    const at = (iso: string) => new Date(iso).toISOString();
    expect(rows.map((r) => ({ ...r, sold_at: at((r as unknown as { sold_at: string }).sold_at) }))).toEqual([
      {
        lead_id: routed,
        customer_id: other,
        rule_id: rule.id,
        report_id: report,
        export_id: null,
        channel: 'live',
        phone: '0612345678',
        email: 'jean@exemple.fr',
        sold_at: at('2026-03-02T09:15:00Z'),
      },
      {
        lead_id: unrouted,
        customer_id: other,
        rule_id: rule.id,
        report_id: report,
        export_id: null,
        channel: 'live',
        phone: '0600000001',
        email: null,
        sold_at: at('2026-03-02T16:00:00Z'),
      },
      {
        lead_id: exported,
        customer_id: buyer,
        rule_id: null,
        report_id: null,
        export_id: named,
        channel: 'export',
        phone: '0033700000002',
        email: 'paul@exemple.fr',
        sold_at: at('2026-03-05T09:00:00Z'),
      },
      // Exported from the report (its rapport_id came with the export): the report's customer's.
      {
        lead_id: fromReport,
        customer_id: other,
        rule_id: rule.id,
        report_id: report,
        export_id: ofReport,
        channel: 'export',
        phone: null,
        email: 'rapport@exemple.fr',
        sold_at: at('2026-03-05T09:00:00Z'),
      },
    ]);
    // Run again (the seed does, after its own past sales): nothing is recorded twice.
    expect((await db().query<{ n: number }>('SELECT record_past_sales() AS n')).rows[0].n).toBe(0);
  });
});

describe('exports to a named customer', () => {
  it('write export sales and skip the persons the customer bought within its dedupe window', async () => {
    const landing = await createLanding(db());
    const customer = await createCustomer(server, token, { name: 'Thermi Conseil' });
    const [first, samePhone, sameEmail, fresh, twinA, twinB] = await insertLeads(db(), landing.id, [
      { telephone: '+33 6 11 22 33 44', email: 'a@exemple.fr' },
      { telephone: '06.11.22.33.44', email: 'autre@exemple.fr' },
      { telephone: '0699999999', email: ' A@Exemple.fr ' },
      { telephone: '0655555555' },
      { telephone: '0677777777' },
      { telephone: '06 77 77 77 77', email: 'x@exemple.fr' },
    ]);
    let res = await exportLeads(landing.id, { leads: [first], for_customer: 'thermi conseil' });
    expect(res.status).toBe(200);
    expect(await json<ExportResponse>(res)).toMatchObject({ data: { count: 1, skipped: 0 }, message: 'Leads extraits' });
    const [sale] = await salesOf(landing.id, first);
    const { export_id: exportId } = await leadRow(first);
    expect(sale).toMatchObject({ customer: { id: customer, name: 'Thermi Conseil' }, rule: null, report_id: null, export_id: exportId, channel: 'export' });

    res = await exportLeads(landing.id, { leads: [samePhone, sameEmail, fresh], for_customer: 'Thermi Conseil' });
    expect(await json<ExportResponse>(res)).toMatchObject({
      data: { count: 1, skipped: 2 },
      message: 'Leads extraits ; 2 leads écartés : ce client a déjà acheté ces personnes dans sa fenêtre de dédoublonnage',
    });
    expect((await leadRow(samePhone)).entry_status).toBe('new');
    expect((await leadRow(fresh)).entry_status).toBe('extracted');
    // Two leads of one person in one export: the customer gets the person once.
    res = await exportLeads(landing.id, { leads: [twinA, twinB], for_customer: 'Thermi Conseil' });
    expect(await json<ExportResponse>(res)).toMatchObject({ data: { count: 1, skipped: 1 }, message: expect.stringContaining('1 lead écarté') });
    expect((await leadRow(twinB)).entry_status).toBe('new');

    // Nothing left to sell to that customer: 409, nothing extracted, no export recorded.
    const exportsBefore = (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM exports')).rows[0].n;
    res = await exportLeads(landing.id, { leads: [samePhone], for_customer: 'Thermi Conseil' });
    expect(res.status).toBe(409);
    expect((await json<{ message: string }>(res)).message).toBe("Ce client a déjà acheté cette personne ces 30 derniers jours : le lead n'est pas vendu");
    expect((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM exports')).rows[0].n).toBe(exportsBefore);

    // Another buyer, a free-typed one (no customer: no sale row), or a customer without a window buys them.
    const other = await createCustomer(server, token, { name: 'Sans Fenêtre' });
    await db().query('UPDATE customers SET dedupe_days = 0 WHERE id = $1', [other]);
    res = await exportLeads(landing.id, { leads: [samePhone], for_customer: 'Sans fenetre' });
    expect(await json<ExportResponse>(res)).toMatchObject({ data: { count: 1, skipped: 0 } });
    res = await exportLeads(landing.id, { leads: [sameEmail], for_customer: 'Acheteur de passage' });
    expect(await json<ExportResponse>(res)).toMatchObject({ data: { count: 1, skipped: 0 } });
    expect(await salesOf(landing.id, sameEmail)).toEqual([]);

    // A sale out of the window no longer blocks the person.
    await db().query(`UPDATE lead_sales SET sold_at = now() - interval '31 days' WHERE customer_id = $1`, [customer]);
    res = await exportLeads(landing.id, { leads: [twinB], for_customer: 'Thermi Conseil' });
    expect(await json<ExportResponse>(res)).toMatchObject({ data: { count: 1, skipped: 0 } });
  });

  it('sells a person once to a customer, however many exports of its leads run at once', async () => {
    const landing = await createLanding(db());
    await createCustomer(server, token, { name: 'Concurrence Habitat' });
    const ids = await insertLeads(
      db(),
      landing.id,
      Array.from({ length: 6 }, (_, i) => ({ telephone: i % 2 ? '+33 6 40 40 40 40' : '06 40 40 40 40', nom: `Même${i}` })),
    );
    const answers = await Promise.all(ids.map((id) => exportLeads(landing.id, { leads: [id], for_customer: 'Concurrence Habitat' })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const { rows } = await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM lead_sales WHERE lead_id = ANY($1::bigint[])`, [ids]);
    expect(rows[0].n).toBe(1);
  });

  it('re-injection returns the export’s sales and leaves the lead with no latest sale', async () => {
    const landing = await createLanding(db());
    await createCustomer(server, token, { name: 'Reprise Énergie' });
    const [id] = await insertLeads(db(), landing.id, [{ telephone: '0612121212' }]);
    expect((await exportLeads(landing.id, { leads: [id], for_customer: 'Reprise Energie' })).status).toBe(200);
    const { export_id: exportId } = await leadRow(id);
    const res = await server.request('POST', `/api/exports/insert/${exportId}`, { token });
    expect(res.status).toBe(200);
    expect(await leadRow(id)).toMatchObject({ entry_status: 'new', sold_to: null, export_id: null, rapport_id: null });
    const [sale] = await salesOf(landing.id, id);
    expect(sale).toMatchObject({ channel: 'export', export_id: exportId, returned_at: expect.any(String) });
  });
});

describe('reports read the sales', () => {
  it('list a lead sold on two days in both days’ reports and files', async () => {
    const landing = await createLanding(db());
    const customer = await createCustomer(server, token);
    const rule = await createRule(server, token, { name: 'Deux jours', customer_id: customer, landings: [landing.id] });
    const [twice, once] = await insertLeads(db(), landing.id, [{ nom: 'Deuxfois' }, { nom: 'Unefois' }]);
    const monday = await sellLive(twice, rule, '2026-03-02', '2026-03-02T09:00:00Z');
    await sellLive(once, rule, '2026-03-02', '2026-03-02T10:00:00Z');
    const tuesday = await sellLive(twice, rule, '2026-03-03', '2026-03-03T09:00:00Z');
    // The lead's latest sale is tuesday's.
    expect((await leadRow(twice)).rapport_id).toBe(tuesday);

    const reports = await json<ReportsResponse>(await server.request('GET', `/api/rapports/rules/${rule.id}`, { token }));
    expect(reports.data.map((r) => ({ date: r.date, leads: r.leads, count: r.count }))).toEqual([
      { date: '2026-03-03', leads: [twice], count: 1 },
      { date: '2026-03-02', leads: [twice, once], count: 2 },
    ]);
    for (const [report, names] of [
      [monday, ['Deuxfois', 'Unefois']],
      [tuesday, ['Deuxfois']],
    ] as const) {
      const file = await (await server.request('GET', `/api/rapports/${report}/file?format=csv`, { token })).text();
      expect(file.split('\n').filter((line) => /fois/.test(line)).length).toBe(names.length);
      for (const name of names) expect(file).toContain(name);
    }
    expect((await salesOf(landing.id, twice)).map((s) => [s.channel, s.report_id, s.rule])).toEqual([
      ['live', monday, { id: rule.id, name: 'Deux jours' }],
      ['live', tuesday, { id: rule.id, name: 'Deux jours' }],
    ]);
  });
});

describe('GET /api/landings/data/:id/sales/:leadId', () => {
  it('answers the sales oldest first in their shape, to admins only, for a lead of that landing', async () => {
    const landing = await createLanding(db());
    const elsewhere = await createLanding(db());
    const customer = await createCustomer(server, token, { name: 'Chauffage Martin' });
    const rule = await createRule(server, token, { name: 'Martin Gard', customer_id: customer, landings: [landing.id] });
    const [id, unsold] = await insertLeads(db(), landing.id, [{ telephone: '0613131313' }, {}]);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const report = await sellLive(id, rule, yesterday.slice(0, 10), yesterday);
    await db().query(`UPDATE leads SET entry_status = 'new' WHERE id = $1`, [id]);
    expect((await exportLeads(landing.id, { leads: [id], for_customer: 'Chauffage Martin' })).status).toBe(409);
    await db().query(`UPDATE lead_sales SET sold_at = '2025-12-01T08:30:00Z' WHERE lead_id = $1`, [id]);
    expect((await exportLeads(landing.id, { leads: [id], for_customer: 'Chauffage Martin' })).status).toBe(200);
    const { export_id: exportId } = await leadRow(id);

    const res = await sales(landing.id, id);
    expect(res.status).toBe(200);
    const body = await json<{ data: LeadSale[] }>(res);
    expect(body.data).toEqual([
      {
        id: expect.any(Number),
        lead_id: id,
        customer: { id: customer, name: 'Chauffage Martin' },
        rule: { id: rule.id, name: 'Martin Gard' },
        report_id: report,
        export_id: null,
        channel: 'live',
        price_cents: 0,
        sold_at: expect.stringMatching(/^2025-12-01T08:30:00/),
        returned_at: null,
        return_reason: null,
      },
      {
        id: expect.any(Number),
        lead_id: id,
        customer: { id: customer, name: 'Chauffage Martin' },
        rule: null,
        report_id: null,
        export_id: exportId,
        channel: 'export',
        price_cents: 0,
        sold_at: expect.any(String),
        returned_at: null,
        return_reason: null,
      },
    ]);
    expect(await salesOf(landing.id, unsold)).toEqual([]);

    const staff = await normalUserToken(server);
    expect((await sales(landing.id, id, staff)).status).toBe(403);
    for (const [landingId, leadId] of [
      [elsewhere.id, id],
      [landing.id, 999_999_999],
      [999_999, id],
    ]) {
      const missing = await sales(landingId, leadId);
      expect(missing.status, `${landingId}/${leadId}`).toBe(404);
      expect((await json<{ message: string }>(missing)).message).toBe('Lead introuvable');
    }
    expect((await server.request('GET', `/api/landings/data/${landing.id}/sales/abc`, { token })).status).toBe(404);
  });
});
