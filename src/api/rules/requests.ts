import { apiEnvelope } from '../client';
import type { RuleCreateRequest, RuleDeleteResponse, RuleResponse, RulesTodayResponse, RuleUpdateRequest } from './contract';

/** POST /api/customers/rules → 201 'Règle ajoutée'; 422 `{ status: false, errors }` names each faulty field. */
export const createRule = (body: RuleCreateRequest) => apiEnvelope<RuleResponse>('/customers/rules', { method: 'POST', body });

/** PATCH /api/customers/rules/:id: pause (`active: false`), resume, edit. */
export const updateRule = (id: number, body: RuleUpdateRequest) => apiEnvelope<RuleResponse>(`/customers/rules/${id}`, { method: 'PATCH', body });

/** DELETE /api/customers/rules/:id → 'Règle supprimée' (its reports stay). */
export const deleteRule = (id: number) => apiEnvelope<RuleDeleteResponse>(`/customers/rules/${id}`, { method: 'DELETE' });

/** GET /api/customers/rules/today; undefined when nothing moved since `since` (204). */
export async function fetchRulesToday(customerId: number, since: string | undefined, signal?: AbortSignal): Promise<RulesTodayResponse | undefined> {
  const query: Record<string, string | number> = {};
  if (customerId > 0) query.customer_id = customerId;
  if (since) query.since = since;
  const res = await apiEnvelope<RulesTodayResponse | undefined | ''>('/customers/rules/today', { query, signal });
  return res ? res : undefined;
}
