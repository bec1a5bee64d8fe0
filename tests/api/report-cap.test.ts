import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportsResponse } from '../../src/api/reports/contract';
import { routeLeads } from '../../server/services/delivery/engine';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json } from './leads-support';
import { createCustomer, createRule } from './lives-support';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

describe("a report's cap (issue 24, item 9)", () => {
  it('follows the rule today when the cap changes; earlier days keep theirs', async () => {
    const landing = await createLanding(server.ctx.db);
    const customer = await createCustomer(server, token);
    const rule = await createRule(server, token, { customer_id: customer, landings: [landing.id], leads_number: 5 });
    const [before] = await insertLeads(server.ctx.db, landing.id, [{ code_postal: '30900', created_at: '2026-01-05T10:00:00Z' }]);
    expect(
      (await routeLeads(server.ctx, { leads: [before], offeredAt: new Date('2026-01-05T10:00:00Z'), now: new Date('2026-01-05T10:00:00Z') })).outcomes.get(
        before,
      ),
    ).toBe('delivered');
    const [now] = await insertLeads(server.ctx.db, landing.id, [{ code_postal: '30900' }]);
    expect((await routeLeads(server.ctx, { leads: [now], offeredAt: new Date() })).outcomes.get(now)).toBe('delivered');

    const patched = await server.request('PATCH', `/api/customers/rules/${rule.id}`, { token, body: { leads_number: 12 } });
    expect(patched.status).toBe(200);
    const reports = await json<ReportsResponse>(await server.request('GET', `/api/rapports/rules/${rule.id}`, { token }));
    expect(reports.data.map((r) => [r.date === '2026-01-05' ? 'earlier' : 'today', r.count, r.leads_number])).toEqual([
      ['today', 1, 12],
      ['earlier', 1, 5],
    ]);
  });
});
