/** The audit screen's commands: its filters (the focused row's account among them) and the CSV export of what they keep. */
import { downloadAudit } from '../../api/audit/requests';
import type { CommandContext, ContextWith } from '../../commands/context';
import { defineCommand } from '../../commands/registry';
import type { AuditListRow } from './auditLoader';
import { apiFilters, auditView, hasFilters, noFilters, type AuditCommandContext } from './store';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'audit.actions': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    audit: AuditCommandContext;
  }
}

const section = 'audit';
const scope = 'audit';
type OnView = ContextWith<'audit'>;
type OnRow = OnView & { audit: { focused: AuditListRow & { actor_id: number } } };
const onView = (ctx: CommandContext): ctx is OnView => ctx.audit !== undefined;
const onActorRow = (ctx: CommandContext): ctx is OnRow => ctx.audit?.focused?.actor_id != null;

defineCommand({
  id: 'audit.focusFilters',
  title: 'audit.focusFilters',
  section,
  scope,
  keys: ['f'],
  requires: 'admin',
  when: onView,
  run: () => document.querySelector<HTMLElement>('[data-audit-filters] [data-field=actor] button')?.focus(),
});

defineCommand({
  id: 'audit.filterActor',
  title: 'audit.filterActor',
  section,
  scope,
  keys: ['a'],
  requires: 'admin',
  when: (ctx): ctx is OnRow => onActorRow(ctx) && auditView.filters.actor !== ctx.audit.focused.actor_id,
  menus: [{ id: 'audit.actions', group: 'filter', order: 1 }],
  run: (ctx) => {
    auditView.filters.actor = ctx.audit.focused.actor_id;
  },
});

defineCommand({
  id: 'audit.clearFilters',
  title: 'audit.clearFilters',
  section,
  scope,
  requires: 'admin',
  when: (ctx): ctx is OnView => onView(ctx) && hasFilters(auditView.filters),
  menus: [{ id: 'audit.actions', group: 'filter', order: 2 }],
  run: () => {
    auditView.filters = { ...noFilters };
  },
});

defineCommand({
  id: 'audit.export',
  title: 'audit.export',
  section,
  scope,
  keys: ['e'],
  requires: 'admin',
  when: onView,
  menus: [{ id: 'audit.actions', group: 'file', order: 3 }],
  run: async (ctx) => {
    const name = await downloadAudit(apiFilters(auditView.filters));
    ctx.toast.success(ctx.t('audit.toast.exported', { name }));
  },
});
