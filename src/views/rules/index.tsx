import { useEffect, useMemo, useRef, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useParams } from 'react-router';
import { useCustomers } from '../../api/customers/hooks';
import { useRules } from '../../api/rules/hooks';
import { useProvideCommandContext } from '../../commands/context';
import type { GridHandle, RowId } from '../../grid/types';
import { useT } from '../../i18n/provider';
import '../../styles/lives.css';
import { useScreenTabs } from '../../ui/useScreenTabs';
import { CustomerFilter } from './CustomerFilter';
import { RuleEditDialog } from './RuleEditDialog';
import { RuleForm } from './RuleForm';
import { RuleList } from './RuleList';
import './rules.css';
import { ruleForm, ruleTabs, type RulesCommandContext, type RuleTab } from './store';

/** Rules (/customers/rules/:customerId, 0 for every customer): 'Règles' and 'Créer une règle' (?tab=create). */
export default function RulesScreen() {
  const t = useT();
  const customerId = Number(useParams().customerId ?? 0);
  const rules = useRules(customerId);
  const customer = useCustomers().data?.find((c) => c.id === customerId);
  const gridRef = useRef<GridHandle | null>(null);
  const { tab, setTab, showTab } = useScreenTabs(ruleTabs, gridRef);
  const [focusedId, setFocusedId] = useState<RowId | undefined>(undefined);
  const focused = useMemo(() => rules.data?.find((r) => r.id === focusedId), [rules.data, focusedId]);

  // The form creates rules for the customer the screen shows, until the user picks another.
  useEffect(() => {
    if (customerId > 0) ruleForm.draft.customer_id = customerId;
  }, [customerId]);

  const ctx: RulesCommandContext = useMemo(() => ({ customerId, tab, showTab, focused, grid: () => gridRef.current }), [customerId, tab, showTab, focused]);
  useProvideCommandContext({ view: 'rules', rules: ctx });

  return (
    <section className="lives-view" aria-labelledby="rules-title">
      <header className="lives-head">
        <h1 id="rules-title">{customer ? t('rules.titleOf', { name: customer.name }) : t('shell.screen.rules')}</h1>
        <CustomerFilter customerId={customerId} />
      </header>
      <Tabs selectedKey={tab} onSelectionChange={(key) => setTab(key as RuleTab)} className="screen-tabs">
        <TabList aria-label={t('rules.tabs')} className="screen-tablist">
          {ruleTabs.map((key) => (
            <Tab key={key} id={key} className="screen-tab">
              {t(`rules.tab.${key}`)}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="list" className="lives-panel">
          <RuleList customerId={customerId} version={rules.data} gridRef={gridRef} onFocusChange={setFocusedId} failed={rules.isError} />
        </TabPanel>
        <TabPanel id="create" className="lives-panel">
          <RuleForm mode="create" />
        </TabPanel>
      </Tabs>
      <RuleEditDialog />
    </section>
  );
}
