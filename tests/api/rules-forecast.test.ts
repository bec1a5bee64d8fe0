// Cap forecast (issue 27): a rule's `today.expected_full_at`, from today's real deliveries and the
// same weekday's arrivals of the last 4 weeks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Rule, RulesTodayResponse } from '../../src/api/rules/contract';
import { parisClock } from '../../server/services/delivery/paris-time';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json } from './leads-support';
import { createCustomer, createRule } from './lives-support';
import { until } from '../support/until';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

describe('the cap forecast', () => {
  it('reads today’s pace against the same weekday’s arrivals of the last 4 weeks', async () => {
    const { db } = server.ctx;
    const landing = await createLanding(db);
    const customer = await createCustomer(server, token);
    const rule = await createRule(server, token, { customer_id: customer, landings: [landing.id], leads_number: 3 });
    const clock = parisClock(new Date());
    // Each of the last 4 same weekdays: one lead by now, three an hour later.
    const early = Math.max(0, clock.minute - 30);
    const later = clock.minute + 60;
    for (const [minute, n] of [
      [early, 1],
      [later, 3],
    ]) {
      await db.query(
        `INSERT INTO leads (landing_id, entry_status, source, created_at, data)
         SELECT $1, 'extracted', 'google', (($2::date - 7 * w) + make_interval(mins => $3))::timestamp AT TIME ZONE 'Europe/Paris', '{}'
           FROM generate_series(1, 4) w, generate_series(1, $4) k`,
        [landing.id, clock.day, minute, n],
      );
    }
    // Today the rule took one real intake.
    const res = await server.request('POST', `/api/intake/${landing.key}`, { body: { nom: 'Durand', telephone: '0612345678', code_postal: '30000' } });
    expect(res.status).toBe(201);
    const today = async () =>
      (await json<{ data: Rule[] }>(await server.request('GET', `/api/customers/rules?customer_id=${customer}`, { token }))).data[0].today;
    await until(async () => (await today()).count === 1, 30_000, 'the delivery');

    // A quarter of a day's arrivals came by now and the rule took 1: 4 a day at that pace, so a
    // cap of 3 fills with three quarters of them, the arrivals an hour later.
    const expected = later <= 23 * 60 + 59 ? hhmm(later) : null;
    expect(await today()).toEqual({ count: 1, leads_number: 3, expected_full_at: expected });
    const fill = await json<RulesTodayResponse>(await server.request('GET', `/api/customers/rules/today?customer_id=${customer}`, { token }));
    expect(fill.data).toEqual([expect.objectContaining({ id: rule.id, count: 1, expected_full_at: expected })]);

    // At that pace a cap of 5 is not reached today; a cap of 1 is reached already.
    await server.request('PATCH', `/api/customers/rules/${rule.id}`, { token, body: { leads_number: 5 } });
    expect((await today()).expected_full_at).toBeNull();
    const full = await json<{ data: Rule }>(await server.request('PATCH', `/api/customers/rules/${rule.id}`, { token, body: { leads_number: 1 } }));
    expect(full.data.today).toEqual({ count: 1, leads_number: 1, expected_full_at: null });
  });
});
