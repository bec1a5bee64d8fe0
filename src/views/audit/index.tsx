import { useCallback, useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { useProvideCommandContext } from '../../commands/context';
import { defaultFormatter } from '../../grid/Grid';
import type { GridColumnSpec } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import '../../styles/admin.css';
import { ListScreen, useListScreen, type ListGrid } from '../../ui/ListScreen';
import { auditLoader, type AuditListRow } from './auditLoader';
import { FilterBar } from './FilterBar';
import { apiFilters, auditView, type AuditCommandContext } from './store';

// Filtered by the bar above the grid, in the server's order (newest first).
const columns = (
  [
    { key: 'at', label: '', kind: 'date', width: 170 },
    { key: 'actor', label: '', kind: 'text', width: 180 },
    { key: 'action', label: '', kind: 'text', width: 200 },
    { key: 'entity', label: '', kind: 'text', width: 150 },
    { key: 'count', label: '', kind: 'number', width: 90 },
    { key: 'address', label: '', kind: 'text', width: 150 },
    { key: 'details', label: '', kind: 'text', width: 360 },
  ] satisfies GridColumnSpec[]
).map((c): GridColumnSpec => ({ ...c, filter: false, sort: false }));

/** /audit: the audit log, newest first, with its filters and its CSV export (admin). */
export default function AuditScreen() {
  const t = useT();
  const intl = useIntl();
  const { filters } = useSnapshot(auditView);
  const query = useMemo(() => apiFilters(filters), [filters]);
  const onPage = useCallback((page: { actions: string[]; entities: string[] }) => {
    auditView.meta = { actions: page.actions, entities: page.entities };
  }, []);
  const loader = useMemo(() => auditLoader(query, onPage), [query, onPage]);
  const list = useListScreen<AuditListRow>({ loader });

  const grid: ListGrid = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    const format = (c: GridColumnSpec, v: unknown) => (c.key === 'actor' && v === '' ? t('audit.noActor') : base(c, v));
    return { queryKey: JSON.stringify(query), columns, format };
  }, [intl.locale, t, query]);

  const { focused, refresh } = list;
  const ctx: AuditCommandContext = useMemo(() => ({ focused, refresh }), [focused, refresh]);
  useProvideCommandContext({ view: 'audit', audit: ctx });

  return (
    <ListScreen
      name="audit"
      title={t('shell.screen.audit')}
      above={<FilterBar />}
      list={list}
      grid={grid}
      status={focused ? t('audit.focused', { actor: focused.actor || t('audit.noActor'), address: focused.address || '—' }) : t('audit.noFocus')}
    />
  );
}
