import { call } from '../client';
import type { RuleCreateRequest, RuleSimulateRequest, RuleSimulation, RulesTodayResponse, RuleUpdateRequest } from './contract';
import { rulesApi } from './endpoints';

/** POST /api/customers/rules → 201 'Règle ajoutée'; 422 `{ status: false, errors }` names each faulty field. */
export const createRule = (body: RuleCreateRequest) => call(rulesApi.create, { body });

/** PATCH /api/customers/rules/:id: pause (`active: false`), resume, edit. */
export const updateRule = (id: number, body: RuleUpdateRequest) => call(rulesApi.update, { params: { id }, body });

/** DELETE /api/customers/rules/:id → 'Règle supprimée' (its reports stay). */
export const deleteRule = (id: number) => call(rulesApi.remove, { params: { id } });

/** GET /api/customers/rules/today; undefined when nothing moved since `since` (204). */
export async function fetchRulesToday(customerId: number, since: string | undefined, signal?: AbortSignal): Promise<RulesTodayResponse | undefined> {
  const query = { ...(customerId > 0 ? { customer_id: String(customerId) } : {}), ...(since ? { since } : {}) };
  // A 204 has no body: ofetch gives it as undefined (or '').
  const res: RulesTodayResponse | undefined | '' = await call(rulesApi.today, { query, signal });
  return res ? res : undefined;
}

/** POST /api/customers/rules/simulate: what the draft would have taken over the last days (nothing written); `signal` cancels a stale one. */
export const simulateRule = (body: RuleSimulateRequest, signal?: AbortSignal): Promise<RuleSimulation> =>
  call(rulesApi.simulate, { body, signal }).then((r) => r.data);
