import { useMemo } from 'react';
import { queryClient } from '../../api/queryClient';
import type { Account } from '../../api/users/contract';
import { useUsers } from '../../api/users/hooks';
import { usersQuery } from '../../api/users/queries';
import { useProvideCommandContext } from '../../commands/context';
import { runCommand } from '../../commands/registry';
import { defaultFormatter } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, Row } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import '../../styles/admin.css';
import { ListScreen, useListScreen, type ListGrid } from '../../ui/ListScreen';
import { InviteForm } from './InviteForm';
import { userTabs, type UsersCommandContext, type UserTab } from './store';

const columns: GridColumnSpec[] = [
  { key: 'id', label: '', kind: 'number', width: 70 },
  { key: 'name', label: '', kind: 'text', width: 220 },
  { key: 'email', label: '', kind: 'text', width: 280 },
  { key: 'role', label: '', kind: 'select', options: ['admin', 'normal'], width: 120 },
  { key: 'access', label: '', kind: 'select', options: ['active', 'invited', 'expired'], width: 170 },
  { key: 'created_at', label: '', kind: 'date', width: 150 },
];

/** Whether the account chose its password, or still has an invitation waiting (or expired). */
const accessOf = (a: Account) => (a.invitation === null ? 'active' : a.invitation.expired ? 'expired' : 'invited');

const loader = localLoader(async () => (await queryClient.fetchQuery(usersQuery)).map((a): Row => ({ ...a, access: accessOf(a) })), columns);

// Enter or a double click on an account: its exports.
const onOpen = (row: Row) => void runCommand('nav.exports', { userId: row.id }, 'button');

/** /users: the accounts ('Listes') and the invitation of a new one ('Créer un compte'). */
export default function UsersScreen() {
  const t = useT();
  const intl = useIntl();
  const users = useUsers();
  const list = useListScreen<Account, UserTab>({ tabs: userTabs, loader, version: users.data });
  // Roles and access read in the user's language, in the cells as in their filters.
  const grid: ListGrid = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    return {
      queryKey: 'users',
      columns: columns.map((c) => (c.key === 'role' || c.key === 'access' ? { ...c, optionLabel: (v: string) => t(`users.${c.key}.${v}`) } : c)),
      format: (c: GridColumnSpec, v: unknown) => (c.key === 'role' || c.key === 'access' ? t(`users.${c.key}.${String(v)}`) : base(c, v)),
      onOpen,
    };
  }, [intl.locale, t]);

  const { tab, showTab, focused } = list;
  const ctx: UsersCommandContext = useMemo(() => ({ tab, showTab, focused }), [tab, showTab, focused]);
  useProvideCommandContext({ view: 'users', users: ctx });

  return (
    <ListScreen
      name="users"
      title={t('shell.screen.users')}
      list={list}
      grid={grid}
      status={focused ? t('users.focused', { name: focused.name, role: t(`users.role.${focused.role}`) }) : t('users.noFocus')}
      panels={{ create: <InviteForm /> }}
    />
  );
}
