import { defineEndpoint } from '../endpoint';
import {
  ruleCreateRequest,
  ruleDeleteResponse,
  ruleResponse,
  rulesQuery,
  rulesResponse,
  ruleSimulateRequest,
  ruleSimulateResponse,
  rulesTodayQuery,
  rulesTodayResponse,
  ruleUpdateRequest,
} from './contract';

export const rulesApi = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/customers/rules',
    auth: 'admin',
    query: rulesQuery,
    response: rulesResponse,
    summary: "Rules (of a customer, or everyone's)",
  }),
  today: defineEndpoint({
    method: 'GET',
    path: '/api/customers/rules/today',
    auth: 'admin',
    query: rulesTodayQuery,
    response: rulesTodayResponse,
    summary: "Today's fill of each rule; 204 while unchanged since `since`",
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/api/customers/rules',
    auth: 'admin',
    body: ruleCreateRequest,
    response: ruleResponse,
    summary: 'Adds a rule',
  }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/customers/rules/:id',
    auth: 'admin',
    body: ruleUpdateRequest,
    response: ruleResponse,
    summary: 'Edits, pauses or resumes a rule',
  }),
  remove: defineEndpoint({
    method: 'DELETE',
    path: '/api/customers/rules/:id',
    auth: 'admin',
    response: ruleDeleteResponse,
    summary: 'Deletes a rule (its reports stay)',
  }),
  simulate: defineEndpoint({
    method: 'POST',
    path: '/api/customers/rules/simulate',
    auth: 'admin',
    body: ruleSimulateRequest,
    response: ruleSimulateResponse,
    summary: 'What a new, edited or deleted rule would have taken over the last days (nothing written)',
  }),
};
