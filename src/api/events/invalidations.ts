import type { Query } from '@tanstack/react-query';
import { leadsKey } from '../leads/queries';
import { notificationsQuery } from '../notifications/queries';
import { reportsKey } from '../reports/queries';
import { rulesKey } from '../rules/queries';
import type { LiveEvent } from './contract';

/** What an event makes stale: the queries the screens read again once it arrived (none when the screen itself follows it). */
export type Stale = 'leads' | 'map' | 'coverage' | 'rules' | 'reports' | 'notifications';

export function staleAfter(event: LiveEvent): Stale[] {
  switch (event.type) {
    case 'lead.created':
    case 'leads.imported':
    case 'leads.restored':
    case 'leads.status':
    case 'leads.deleted':
    case 'leads.converted':
      return ['leads', 'map'];
    case 'lead.sold':
    case 'lead.returned':
      return ['leads', 'map', 'coverage', 'rules', 'reports'];
    case 'rule.fill':
      return ['coverage', 'rules', 'reports'];
    case 'notification':
      return ['notifications'];
    case 'export.ready':
    case 'presence':
    case 'reload':
      return [];
  }
}

const head = (query: Query) => query.queryKey[0];

/** Which cached queries each kind covers: the lead view's statistics and extras, the map's counts (not its saved notes)… */
export const covers: Record<Stale, (query: Query) => boolean> = {
  leads: (q) => head(q) === leadsKey[0],
  map: (q) => head(q) === 'production' && q.queryKey[2] === 'regions',
  // Where a lead would sell now: a cap or a budget reached, or freed by a return, changes it.
  coverage: (q) => head(q) === 'production' && q.queryKey[2] === 'coverage',
  rules: (q) => head(q) === rulesKey[0],
  reports: (q) => head(q) === reportsKey[0],
  notifications: (q) => head(q) === notificationsQuery.queryKey[0],
};
