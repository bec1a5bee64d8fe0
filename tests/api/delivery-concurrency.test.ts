import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeLeads } from '../../server/services/delivery/engine';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

describe('exactly once under concurrency', () => {
  it('delivers exactly 50 of 200 simultaneous intakes to rules whose caps add up to 50, none twice, none over a cap', async () => {
    const landing = await createLanding(server.ctx.db);
    const caps = [5, 10, 15, 20];
    const rules = [];
    for (const cap of caps)
      rules.push(
        await createRule(server, token, { name: `Cap ${cap}`, customer_id: await createCustomer(server, token), landings: [landing.id], leads_number: cap }),
      );

    // 200 landing-page posts at once, from 200 addresses (the intake limits each address).
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        server.request('POST', `/api/intake/${landing.key}`, {
          body: { nom: `Lead ${i}`, telephone: `06${String(10_000_000 + i).slice(0, 8)}`, code_postal: '30900' },
          headers: { 'x-forwarded-for': `198.51.${Math.floor(i / 250)}.${i % 250}` },
        }),
      ),
    );
    expect(answers.map((r) => r.status).every((s) => s === 201)).toBe(true);
    const ids = (await Promise.all(answers.map((r) => r.json() as Promise<{ data: { id: number } }>))).map((b) => b.data.id);

    const decided = async () =>
      (await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM lead_routings WHERE lead_id = ANY($1::bigint[])', [ids])).rows[0].n;
    await until(async () => (await decided()) === 200, 60_000, 'every lead routed');
    // A second instance offering the same leads at the same time changes nothing.
    await Promise.all([
      routeLeads(server.ctx, { leads: ids, offeredAt: new Date() }),
      routeLeads(server.ctx, { leads: [...ids].reverse(), offeredAt: new Date() }),
    ]);

    const { rows: sold } = await server.ctx.db.query<{ id: number; rapport_id: number; sold_to: string }>(
      `SELECT id, rapport_id, sold_to FROM leads WHERE id = ANY($1::bigint[]) AND entry_status = 'extracted'`,
      [ids],
    );
    expect(sold.length).toBe(50);
    expect(new Set(sold.map((l) => l.id)).size).toBe(50);
    const { rows: reports } = await server.ctx.db.query<{ rule_id: number; count: number; leads_number: number; listed: number }>(
      `SELECT rep.rule_id, rep.count, rep.leads_number, (SELECT count(*)::int FROM leads l WHERE l.rapport_id = rep.id) AS listed
         FROM reports rep WHERE rep.rule_id = ANY($1::int[]) ORDER BY rep.leads_number`,
      [rules.map((r) => r.id)],
    );
    // Every rule filled exactly to its cap, its report listing exactly the leads it counts.
    expect(reports.map((r) => [r.count, r.leads_number, r.listed])).toEqual(caps.map((c) => [c, c, c]));
    const { rows: delivered } = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lead_routings WHERE lead_id = ANY($1::bigint[]) AND outcome = 'delivered'`,
      [ids],
    );
    expect(delivered[0].n).toBe(50);
    // The other 150 stay new, each with its explanation: every rule full.
    const { rows: left } = await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM leads WHERE id = ANY($1::bigint[]) AND entry_status = 'new'`,
      [ids],
    );
    expect(left[0].n).toBe(150);

    // One mail per delivered lead, never two.
    await until(
      async () =>
        (await server.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM deliveries WHERE lead_id = ANY($1::bigint[]) AND status = 'sent'`, [ids]))
          .rows[0].n === 50,
      60_000,
      'mails',
    );
    const { rows: mails } = await server.ctx.db.query<{ lead_id: number; n: number }>(
      `SELECT lead_id, count(*)::int AS n FROM deliveries WHERE lead_id = ANY($1::bigint[]) GROUP BY lead_id HAVING count(*) > 1`,
      [ids],
    );
    expect(mails).toEqual([]);
  });
});
