import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { queryClient } from '../../api/queryClient';
import type { Session } from '../../api/sessions/contract';
import { sessionsQuery } from '../../api/sessions/queries';
import { useProvideCommandContext } from '../../commands/context';
import { defaultFormatter } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, Row } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import '../../styles/admin.css';
import { ListScreen, useListScreen, type ListGrid } from '../../ui/ListScreen';
import type { SessionsCommandContext } from './store';

const columns = (
  [
    { key: 'current', label: '', kind: 'select', options: ['true', 'false'], width: 130 },
    { key: 'user_agent', label: '', kind: 'text', width: 360 },
    { key: 'address', label: '', kind: 'text', width: 150 },
    { key: 'method', label: '', kind: 'select', options: ['password', 'sso', 'passkey'], width: 170 },
    { key: 'created_at', label: '', kind: 'date', width: 160 },
    { key: 'last_used_at', label: '', kind: 'date', width: 160 },
  ] satisfies GridColumnSpec[]
).map((c): GridColumnSpec => ({ ...c, sort: false }));

const loader = localLoader(async () => (await queryClient.fetchQuery(sessionsQuery)).map((s): Row => ({ ...s, current: String(s.current) })), columns);

/** /account/sessions ('Mes sessions'): where the account is signed in, each session ended from here. */
export default function SessionsScreen() {
  const t = useT();
  const intl = useIntl();
  const sessions = useQuery(sessionsQuery);
  const list = useListScreen<Row>({ loader, version: sessions.data });
  const grid: ListGrid = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    const labelled = (c: GridColumnSpec) => c.key === 'current' || c.key === 'method';
    return {
      queryKey: 'sessions',
      columns: columns.map((c) => (labelled(c) ? { ...c, optionLabel: (v: string) => t(`sessions.${c.key}.${v}`) } : c)),
      format: (c: GridColumnSpec, v: unknown) =>
        labelled(c) ? t(`sessions.${c.key}.${String(v)}`) : c.key === 'user_agent' && !v ? t('sessions.unknownAgent') : base(c, v),
      rowTone: (row: Row) => (row.current === 'true' ? 'success' : undefined),
    };
  }, [intl.locale, t]);

  const focusedRow = list.focused;
  const focused = useMemo(() => sessions.data?.find((s: Session) => s.id === focusedRow?.id), [sessions.data, focusedRow]);
  const others = (sessions.data ?? []).some((s) => !s.current);
  const ctx: SessionsCommandContext = useMemo(() => ({ focused, others }), [focused, others]);
  useProvideCommandContext({ view: 'sessions', sessions: ctx });

  return (
    <ListScreen
      name="sessions"
      title={t('shell.screen.sessions')}
      subtitle={t('sessions.help')}
      list={list}
      grid={grid}
      status={t('sessions.count', { count: sessions.data?.length ?? 0 })}
    />
  );
}
