import type { Rule, RuleCreateRequest } from '../../src/api/rules/contract';
import type { TestServer } from './harness';
import { json } from './leads-support';

export const everyDay = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };

let customerSeq = 0;

/** A customer created through the API; answers its id. */
export async function createCustomer(server: TestServer, token: string, extra: Record<string, unknown> = {}): Promise<number> {
  customerSeq++;
  const res = await server.request('POST', '/api/customers', {
    token,
    body: { name: `Client ${customerSeq}`, email: `client${customerSeq}-${Date.now()}@example.fr`, ...extra },
  });
  if (res.status !== 201) throw new Error(`customer: ${res.status} ${await res.text()}`);
  return (await json<{ data: { id: number } }>(res)).data.id;
}

/** A rule created through the API (every day, all day, unless told). */
export async function createRule(
  server: TestServer,
  token: string,
  body: Partial<RuleCreateRequest> & { customer_id: number; landings: number[] },
): Promise<Rule> {
  const res = await server.request('POST', '/api/customers/rules', { token, body: { name: 'Règle', ...everyDay, ...body } });
  if (res.status !== 201) throw new Error(`rule: ${res.status} ${await res.text()}`);
  return (await json<{ data: Rule }>(res)).data;
}
