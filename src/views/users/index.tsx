import { useCallback, useMemo, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import { useUsers } from '../../api/users/hooks';
import { useProvideCommandContext } from '../../commands/context';
import type { GridSelectionInfo, RowId } from '../../grid/types';
import { useT } from '../../i18n/provider';
import '../../styles/admin.css';
import { AccountsTab } from './AccountsTab';
import { InviteForm } from './InviteForm';
import { isUserTab, userTabs, type UserTab, type UsersCommandContext } from './store';

/** /users: the accounts ('Listes') and the invitation of a new one ('Créer un compte'). */
export default function UsersScreen() {
  const t = useT();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab');
  const tab: UserTab = isUserTab(requested) ? requested : 'list';
  const setTab = useCallback((next: UserTab) => setSearch(next === 'list' ? {} : { tab: next }, { replace: true }), [setSearch]);
  const [focusedId, setFocusedId] = useState<RowId | undefined>();
  const onSelectionChange = useCallback((info: GridSelectionInfo) => setFocusedId(info.focusedId), []);
  const list = useUsers();
  const focused = list.data?.find((u) => u.id === focusedId);

  const users: UsersCommandContext = useMemo(() => ({ tab, setTab, focused }), [tab, setTab, focused]);
  useProvideCommandContext({ view: 'users', users });

  return (
    <section className="admin-view" aria-labelledby="users-title">
      <h1 id="users-title">{t('shell.screen.users')}</h1>
      <Tabs selectedKey={tab} onSelectionChange={(key) => setTab(key as UserTab)} className="screen-tabs">
        <TabList aria-label={t('users.tabs')} className="screen-tablist" data-users-tabs="">
          {userTabs.map((key) => (
            <Tab key={key} id={key} className="screen-tab">
              {t(`users.tab.${key}`)}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="list" className="admin-panel" data-users-grid="">
          <AccountsTab focused={focused} onSelectionChange={onSelectionChange} />
        </TabPanel>
        <TabPanel id="create" className="admin-panel">
          <InviteForm />
        </TabPanel>
      </Tabs>
    </section>
  );
}
