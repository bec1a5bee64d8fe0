// State of the rules screen shared by its components and its commands (rules.commands.ts).
import { proxy } from 'valtio';
import type { Rule, RuleFill } from '../../api/rules/contract';
import type { GridHandle } from '../../grid/types';
import { ruleDefaults, type RuleErrors } from './ruleForm';

export const ruleTabs = ['list', 'create'] as const;
export type RuleTab = (typeof ruleTabs)[number];

/** What the rule commands see of the mounted screen (CommandContext.rules). */
export interface RulesCommandContext {
  /** The customer filter; 0 for every customer. */
  customerId: number;
  tab: RuleTab;
  /** Shows a tab and takes the focus into it. */
  showTab: (tab: RuleTab) => void;
  /** The rule under the grid's focus. */
  focused: Rule | undefined;
  grid: () => GridHandle | null;
}

/** The 'Créer une règle' form, kept while the user switches tabs or customers. */
export const ruleForm = proxy({
  draft: ruleDefaults(null),
  errors: {} as RuleErrors,
  /** Codes the postal codes field refused, as typed. */
  refusedZip: [] as string[],
  busy: false,
});

/** Today's fill of each rule, as the server last told it (polled while the screen shows). */
export const ruleFills = proxy({ byId: {} as Record<number, RuleFill> });
