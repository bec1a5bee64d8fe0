import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../../../src/api/events/contract';
import { covers, staleAfter } from '../../../../../src/api/events/invalidations';
import { statusCountsQuery } from '../../../../../src/api/leads/queries';
import { viewsQuery } from '../../../../../src/api/views/queries';

const at = '2026-11-28T10:00:00Z';
const imported: LiveEvent = {
  id: 1,
  at,
  type: 'leads.imported',
  data: { landing_id: 3, entry_status: 'new', count: 500, first_id: 1, last_id: 500, by: null },
};
const fill: LiveEvent = {
  id: 2,
  at,
  type: 'rule.fill',
  data: { rule_id: 1, customer_id: 1, today: { count: 5, leads_number: 5 }, sold: { hour: null, week: null, month: null } },
};

/** The cached queries of these keys that an event makes stale. */
function staleKeys(event: LiveEvent, keys: unknown[][]): unknown[][] {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, 0);
  const kinds = staleAfter(event);
  return client
    .getQueryCache()
    .findAll({ predicate: (q) => kinds.some((kind) => covers[kind](q)) })
    .map((q) => q.queryKey as unknown[]);
}

describe('staleAfter', () => {
  const keys = [
    [...statusCountsQuery([3]).queryKey],
    [...viewsQuery.queryKey],
    ['production', 'pac', 'regions', {}],
    ['production', 'pac', 'coverage', [3]],
    ['production', 'pac', 'notes'],
    ['rules', 0],
  ];

  it("an import or a restore recounts the lead view's tabs, the saved views in the sidebar and the map, as an intake does", () => {
    expect(staleKeys(imported, keys)).toEqual([keys[0], keys[1], keys[2]]);
    expect(staleKeys({ ...imported, type: 'leads.restored' }, keys)).toEqual([keys[0], keys[1], keys[2]]);
  });

  it("a fill recounts the rules and the map's coverage, not the leads", () => {
    expect(staleKeys(fill, keys)).toEqual([keys[3], keys[5]]);
  });
});
