import { useCallback, useMemo } from 'react';
import type { Account } from '../../api/users/contract';
import { queryClient } from '../../api/queryClient';
import { usersQuery } from '../../api/users/queries';
import { CommandMenu } from '../../commands/CommandMenu';
import { runCommand } from '../../commands/registry';
import { defaultFormatter, Grid } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, GridSelectionInfo, Row } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';

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


// The rows come from react-query's cache: an action that invalidates the list reloads the grid's pages too.
const loader = localLoader(async () => (await queryClient.fetchQuery(usersQuery)).map((a): Row => ({ ...a, access: accessOf(a) })), columns);

// Enter or a double click on an account: its exports.
const openExports = (row: Row) => void runCommand('nav.exports', { userId: row.id }, 'button');

/** 'Listes': every account, its actions on the focused row. */
interface Props {
  focused: Account | undefined;
  onSelectionChange: (info: GridSelectionInfo) => void;
}

export function AccountsTab({ focused, onSelectionChange }: Props) {
  const t = useT();
  const intl = useIntl();
  const columnLabel = useCallback((c: GridColumnSpec) => t(`users.column.${c.key}`), [t]);
  // Roles and access read in the user's language, in the cells as in their filters.
  const shown = useMemo(
    () => columns.map((c) => (c.key === 'role' || c.key === 'access' ? { ...c, optionLabel: (v: string) => t(`users.${c.key}.${v}`) } : c)),
    [t],
  );
  const format = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    return (c: GridColumnSpec, v: unknown) => (c.key === 'role' ? t(`users.role.${String(v)}`) : c.key === 'access' ? t(`users.access.${String(v)}`) : base(c, v));
  }, [intl.locale, t]);

  return (
    <>
      <div className="admin-bar">
        <CommandMenu menu="users.actions" variant="toolbar" label={t('users.actions')} className="admin-actions" />
        <p className="admin-total" aria-live="polite">
          {focused ? t('users.focused', { name: focused.name, role: t(`users.role.${focused.role}`) }) : t('users.noFocus')}
        </p>
      </div>
      <Grid
        queryKey="users"
        rowMenu={{ menu: 'users.actions', label: t('users.actions') }}
        loader={loader}
        columns={shown}
        columnLabel={columnLabel}
        format={format}
        label={t('users.grid')}
        t={t}
        locale={intl.locale}
        selectable={false}
        onSelectionChange={onSelectionChange}
        onOpen={openExports}
        className="admin-grid"
      />
    </>
  );
}
