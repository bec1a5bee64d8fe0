import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareNames } from '../../src/shared/frenchOrder';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, json } from './leads-support';
import { createCustomer, createRule } from './lives-support';

// Names in French order (issue 24, item 16): 'Éco' before 'Walk', not after 'Z' as in code-point
// order, on PGlite and PostgreSQL alike, and as the browser's compareNames orders them.

let server: TestServer;
let token: string;
const names = ['Walk', 'Éco', 'Zèbre', 'abc', 'École', 'eco', 'Ete', 'été', 'Client 10', 'Client 9'];
const french = ['abc', 'Client 10', 'Client 9', 'eco', 'Éco', 'École', 'Ete', 'été', 'Walk', 'Zèbre'];

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

const listed = async <T extends { name: string }>(path: string, keep: (row: T) => boolean) =>
  (await json<{ data: T[] }>(await server.request('GET', path, { token }))).data.filter(keep).map((row) => row.name);

describe('names in French order', () => {
  it('is the order of compareNames', () => {
    expect([...names].sort(compareNames)).toEqual(french);
  });

  it('orders customers, their rules, rules, landings and users in the API', async () => {
    const landingIds: number[] = [];
    for (const name of names) landingIds.push((await createLanding(server.ctx.db, { name: `LP ${name}` })).id);
    const customers: number[] = [];
    for (const name of names) customers.push(await createCustomer(server, token, { name: `Client ${name}` }));
    for (const name of names) await createRule(server, token, { name, customer_id: customers[0], landings: landingIds });
    for (const [i, name] of names.entries()) {
      await server.ctx.db.query("INSERT INTO users (email, name, password_hash) VALUES ($1, $2, '')", [`u${i}@test.local`, `Compte ${name}`]);
    }
    const prefixed = (prefix: string) => french.map((n) => `${prefix} ${n}`);

    expect(await listed('/api/customers', (c) => c.name.startsWith('Client '))).toEqual(prefixed('Client'));
    const customer = (
      await json<{ data: Array<{ id: number; rules: Array<{ name: string }> }> }>(await server.request('GET', '/api/customers', { token }))
    ).data.find((c) => c.id === customers[0])!;
    expect(customer.rules.map((r) => r.name)).toEqual(french);
    expect(await listed(`/api/customers/rules?customer_id=${customers[0]}`, () => true)).toEqual(french);
    const rule = (
      await json<{ data: Array<{ landings: Array<{ name: string }> }> }>(
        await server.request('GET', `/api/customers/rules?customer_id=${customers[0]}`, { token }),
      )
    ).data[0];
    expect(rule.landings.map((l) => l.name)).toEqual(prefixed('LP'));
    expect(await listed('/api/landings', (l) => l.name.startsWith('LP '))).toEqual(prefixed('LP'));
    expect(await listed('/api/all/landings', (l) => l.name.startsWith('LP '))).toEqual(prefixed('LP'));
    expect(await listed('/api/users', (u) => u.name.startsWith('Compte '))).toEqual(prefixed('Compte'));
  });
});
