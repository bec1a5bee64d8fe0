// State of the audit screen shared by its filter bar and its commands (audit.commands.ts).
import { proxy } from 'valtio';
import type { AuditFilters } from '../../api/audit/requests';
import type { AuditListRow } from './auditLoader';

/** What the audit commands see of the mounted screen (CommandContext.audit). */
export interface AuditCommandContext {
  focused: AuditListRow | undefined;
  refresh: () => Promise<void>;
}

export const noFilters = { actor: null as number | null, action: '', entity: '', start: '', end: '' };

export const auditView = proxy({
  filters: { ...noFilters },
  /** The values the log holds, for the action and entity filters (from the last page). */
  meta: { actions: [] as string[], entities: [] as string[] },
});

/** The filters as the API takes them. */
export const apiFilters = (f: typeof noFilters): AuditFilters => ({
  actor: f.actor ?? undefined,
  action: f.action,
  entity: f.entity,
  from: f.start,
  to: f.end,
});

export const hasFilters = (f: typeof noFilters) => f.actor !== null || Boolean(f.action || f.entity || f.start || f.end);
