// State of the rules screen shared by its components and its commands (rules.commands.ts).
import { proxy } from 'valtio';
import type { Rule, RuleFill, RuleSold } from '../../api/rules/contract';
import type { GridHandle } from '../../grid/types';
import { advancedUsed } from './ruleAdvanced';
import { ruleDefaults, type RuleDraft, type RuleErrors } from './ruleForm';

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
  /** A listed rule by id (a row's buttons act on their own). */
  byId: (id: number) => Rule | undefined;
  grid: () => GridHandle | null;
}

/** A rule form's state (RuleForm.tsx): the creation's, or the edit's. */
export interface RuleFormState {
  draft: RuleDraft;
  errors: RuleErrors;
  /** Codes the postal codes field refused, as typed. */
  refusedZip: string[];
  /** Indexes of the filters refused (by the form or the server). */
  badFilters: number[];
  /** The 'Avancé' section shown. */
  advancedOpen: boolean;
  busy: boolean;
}

const freshForm = (draft: RuleDraft): RuleFormState => ({
  draft,
  errors: {},
  refusedZip: [],
  badFilters: [],
  advancedOpen: advancedUsed(draft.advanced),
  busy: false,
});

/** The 'Créer une règle' form, kept while the user switches tabs or customers. */
export const ruleForm = proxy<RuleFormState>(freshForm(ruleDefaults(null)));

/** 'Modifier la règle': the rule being edited (null: the dialog is closed) and its form, the same as the creation's. */
export const ruleEdit = proxy({ id: null as number | null, form: freshForm(ruleDefaults(null)) });

export function openRuleEdit(id: number, draft: RuleDraft) {
  ruleEdit.form = freshForm(draft);
  ruleEdit.id = id;
}

/** Today's fill of each rule and its sales per window, as the server last told them (polled while the screen shows). */
export const ruleFills = proxy({ byId: {} as Record<number, RuleFill & { sold: RuleSold }> });

/** The form of a mode: the creation's, or the rule being edited. */
export const formOf = (mode: 'create' | 'edit'): RuleFormState => (mode === 'create' ? ruleForm : ruleEdit.form);
