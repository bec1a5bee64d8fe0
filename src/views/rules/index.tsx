import { useEffect, useMemo } from 'react';
import { useParams } from 'react-router';
import { useCustomers } from '../../api/customers/hooks';
import type { Rule } from '../../api/rules/contract';
import { useRules } from '../../api/rules/hooks';
import { useProvideCommandContext } from '../../commands/context';
import { useT } from '../../i18n/provider';
import { ListScreen, useListScreen } from '../../ui/ListScreen';
import { CustomerFilter } from './CustomerFilter';
import { RuleEditDialog } from './RuleEditDialog';
import { RuleForm } from './RuleForm';
import { useRuleGrid } from './ruleGrid';
import './rules.css';
import { ruleForm, ruleTabs, type RulesCommandContext, type RuleTab } from './store';

/** Rules (/customers/rules/:customerId, 0 for every customer): 'Règles' and 'Créer une règle' (?tab=create). */
export default function RulesScreen() {
  const t = useT();
  const customerId = Number(useParams().customerId ?? 0);
  const rules = useRules(customerId);
  const customer = useCustomers().data?.find((c) => c.id === customerId);
  const { loader, grid } = useRuleGrid(customerId);
  const list = useListScreen<Rule, RuleTab>({ tabs: ruleTabs, loader, version: rules.data });

  // The form creates rules for the customer the screen shows, until the user picks another.
  useEffect(() => {
    if (customerId > 0) ruleForm.draft.customer_id = customerId;
  }, [customerId]);

  const { tab, showTab, focused, byId, grid: gridHandle } = list;
  const ctx: RulesCommandContext = useMemo(
    () => ({ customerId, tab, showTab, focused, byId, grid: gridHandle }),
    [customerId, tab, showTab, focused, byId, gridHandle],
  );
  useProvideCommandContext({ view: 'rules', rules: ctx });

  return (
    <ListScreen
      name="rules"
      title={customer ? t('rules.titleOf', { name: customer.name }) : t('shell.screen.rules')}
      head={<CustomerFilter customerId={customerId} />}
      list={list}
      grid={grid}
      panels={{ create: <RuleForm mode="create" /> }}
    >
      <RuleEditDialog />
    </ListScreen>
  );
}
