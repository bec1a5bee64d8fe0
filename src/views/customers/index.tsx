import { useMemo, useRef, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useCustomers } from '../../api/customers/hooks';
import { useProvideCommandContext } from '../../commands/context';
import type { GridHandle, RowId } from '../../grid/types';
import { useT } from '../../i18n/provider';
import { CustomerEditDialog } from './CustomerEditDialog';
import { CustomerForm } from './CustomerForm';
import { CustomerList } from './CustomerList';
import { customerTabs, type CustomersCommandContext, type CustomerTab } from './store';
import { useScreenTabs } from '../../ui/useScreenTabs';
import '../../styles/lives.css';

/** Customers (/customers): 'Listes des clients' and 'Créer un client' (?tab=create). */
export default function CustomersScreen() {
  const t = useT();
  const customers = useCustomers();
  const gridRef = useRef<GridHandle | null>(null);
  const { tab, setTab, showTab } = useScreenTabs(customerTabs, gridRef);
  const [focusedId, setFocusedId] = useState<RowId | undefined>(undefined);
  const focused = useMemo(() => customers.data?.find((c) => c.id === focusedId), [customers.data, focusedId]);

  const ctx: CustomersCommandContext = useMemo(() => ({ tab, showTab, focused, grid: () => gridRef.current }), [tab, showTab, focused]);
  useProvideCommandContext({ view: 'customers', customers: ctx });

  return (
    <section className="lives-view" aria-labelledby="customers-title">
      <h1 id="customers-title">{t('shell.screen.customers')}</h1>
      <Tabs selectedKey={tab} onSelectionChange={(key) => setTab(key as CustomerTab)} className="screen-tabs">
        <TabList aria-label={t('customers.tabs')} className="screen-tablist">
          {customerTabs.map((key) => (
            <Tab key={key} id={key} className="screen-tab">
              {t(`customers.tab.${key}`)}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="list" className="lives-panel">
          <CustomerList version={customers.data} gridRef={gridRef} onFocusChange={setFocusedId} failed={customers.isError} />
        </TabPanel>
        <TabPanel id="create" className="lives-panel">
          <CustomerForm />
        </TabPanel>
      </Tabs>
      <CustomerEditDialog />
    </section>
  );
}
