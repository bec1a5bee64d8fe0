/**
 * The rules screen's commands — the tabs, creating, editing, pausing, resuming and deleting a rule,
 * opening a rule's reports, the customer filter — and the palette's rules, each a jump to its
 * reports. The screen provides `ctx.rules`; a row's buttons pass their rule as `{ ruleId }`.
 */
import { ApiError } from '../../api/client';
import { customersQuery } from '../../api/customers/queries';
import { facebookLandingsQuery, landingsQuery } from '../../api/landings/queries';
import { queryClient } from '../../api/queryClient';
import type { Rule } from '../../api/rules/contract';
import { rulesKey, rulesQuery } from '../../api/rules/queries';
import { createRule, deleteRule, updateRule } from '../../api/rules/requests';
import type { CommandContext, ContextWith } from '../../commands/context';
import { definePaletteSource } from '../../commands/palette/sources';
import { defineCommand } from '../../commands/registry';
import { afterCreate, checkRule, draftOf, serverErrors } from './ruleForm';
import { openRuleEdit, ruleEdit, ruleForm, ruleTabs, type RulesCommandContext } from './store';
import { hrefOf } from '../../commands/screens';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'rules.actions': true;
    'rules.editForm': true;
    'rules.form': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    rules: RulesCommandContext;
  }
}

definePaletteSource<Rule>({
  id: 'rules',
  order: 41,
  requires: 'admin',
  query: rulesQuery(0),
  entries: (rules) =>
    rules.map((r) => ({
      key: String(r.id),
      label: r.name,
      hint: r.customer_name,
      keywords: r.landings.map((l) => l.name).join(' '),
      command: 'nav.reports',
      args: { ruleId: r.id },
    })),
});

const section = 'rules';
const scope = 'rules';
type RuleArgs = { ruleId: number } | undefined;

type OnScreen = ContextWith<'rules'>;
const onScreen = (ctx: CommandContext): ctx is OnScreen => ctx.rules !== undefined;
/** The rule a command acts on: its row's (a row's buttons pass it), or the focused one (toolbar, keys, palette). */
const ruleOf = (ctx: CommandContext, args: RuleArgs) => (args ? ctx.rules?.byId(args.ruleId) : ctx.rules?.focused);
/** The list shows the rule to act on. */
const onRule = (ctx: CommandContext, args: RuleArgs): ctx is OnScreen => ctx.rules?.tab === 'list' && ruleOf(ctx, args) !== undefined;

/**
 * Lists, the palette's rules, the customers' rule counts and today's fills read again; the grid
 * of whichever rules screen shows then (the route may have changed during a confirmation)
 * follows its query.
 */
async function reload() {
  await Promise.all([queryClient.invalidateQueries({ queryKey: rulesKey }), queryClient.invalidateQueries({ queryKey: customersQuery.queryKey })]);
}

/** 'Impossible de traiter cette demande', after the list is read again (the rule may be gone). */
const failed =
  (ctx: CommandContext) =>
  async (error: unknown): Promise<never> => {
    await reload();
    throw new Error(ctx.t('rules.error.action'), { cause: error });
  };

/** The landings with their form columns as the form loaded them, so that it refuses a filter that does not fit one of them. */
const cachedLandings = () => [...(queryClient.getQueryData(landingsQuery.queryKey) ?? []), ...(queryClient.getQueryData(facebookLandingsQuery.queryKey) ?? [])];

ruleTabs.forEach((tab, i) => {
  defineCommand({
    id: `rules.tab.${tab}`,
    title: `rules.tab.${tab}`,
    section,
    scope,
    keys: [String(i + 1)],
    requires: 'admin',
    when: onScreen,
    run: (ctx) => ctx.rules.showTab(tab),
  });
});

defineCommand({
  id: 'rules.filterCustomer',
  title: 'rules.filterCustomer',
  section,
  scope,
  keys: ['f'],
  requires: 'admin',
  when: onScreen,
  // Opens the list on its search field: f, a few letters, Enter.
  run: () => document.querySelector<HTMLButtonElement>('[data-rules-filter] button')?.click(),
});

defineCommand({
  id: 'rules.allCustomers',
  title: 'rules.allCustomers',
  section,
  scope,
  requires: 'admin',
  when: (ctx): ctx is OnScreen => onScreen(ctx) && ctx.rules.customerId !== 0,
  run: (ctx) => ctx.navigate(hrefOf('rules', { customerId: 0 })),
});

// Enter or a double click on a row, its Rapports button, the toolbar and the palette.
defineCommand<RuleArgs, OnScreen>({
  id: 'rules.openReports',
  title: 'rules.openReports',
  section,
  scope,
  menus: [{ id: 'rules.actions', group: 'open', order: 1, tone: 'primary', inline: true }],
  requires: 'admin',
  when: onRule,
  run: (ctx, args) => {
    const rule = ruleOf(ctx, args);
    if (rule) ctx.navigate(hrefOf('reports', { ruleId: rule.id }));
  },
});

function activeCommand(id: 'rules.pause' | 'rules.resume', keys: string[], active: boolean, done: string, order: number) {
  defineCommand<RuleArgs, OnScreen>({
    id,
    title: id,
    section,
    scope,
    keys,
    // The toolbar and each row offer the one that applies to their rule; the palette and the keys both.
    menus: [{ id: 'rules.actions', group: 'state', order, inline: true, when: (ctx, args) => ruleOf(ctx, args)?.active === !active }],
    requires: 'admin',
    when: onRule,
    run: async (ctx, args) => {
      const rule = ruleOf(ctx, args);
      if (!rule) return;
      await updateRule(rule.id, { active }).catch(failed(ctx));
      ctx.toast.success(ctx.t(done));
      await reload();
    },
  });
}

activeCommand('rules.pause', ['p'], false, 'rules.toast.paused', 2);
activeCommand('rules.resume', ['shift+p'], true, 'rules.toast.resumed', 3);

defineCommand<RuleArgs, OnScreen>({
  id: 'rules.delete',
  title: 'rules.delete',
  section,
  scope,
  keys: ['shift+delete'],
  menus: [{ id: 'rules.actions', group: 'danger', order: 9, tone: 'danger', inline: true }],
  requires: 'admin',
  when: onRule,
  confirm: { message: 'rules.delete.confirm', ok: 'rules.delete.ok' },
  run: async (ctx, args) => {
    const rule = ruleOf(ctx, args);
    if (!rule) return;
    await deleteRule(rule.id).catch(failed(ctx));
    ctx.toast.success(ctx.t('rules.toast.deleted'));
    await reload();
  },
});

// Checks the form, then sends it; a refusal (422, `status: false`) is shown field by field.
defineCommand({
  id: 'rules.create',
  title: 'rules.create',
  section,
  scope,
  menus: [{ id: 'rules.form', order: 1, tone: 'primary' }],
  requires: 'admin',
  when: (ctx): ctx is OnScreen => onScreen(ctx) && ctx.rules.tab === 'create' && !ruleForm.busy,
  run: async (ctx) => {
    const { errors, badFilters, payload } = checkRule(ruleForm.draft, cachedLandings());
    ruleForm.errors = errors;
    ruleForm.badFilters = badFilters;
    if (!payload) return ctx.toast.warning(ctx.t('rules.form.invalid'));
    ruleForm.busy = true;
    try {
      await createRule(payload);
      ruleForm.draft = afterCreate(ruleForm.draft);
      ruleForm.refusedZip = [];
      ruleForm.advancedOpen = false;
      // Ready for the customer's next rule.
      document.getElementById('rule-name')?.focus();
      ctx.toast.success(ctx.t('rules.toast.created'));
      await reload();
    } catch (error) {
      if (error instanceof ApiError && error.body?.status === false) {
        ({ errors: ruleForm.errors, badFilters: ruleForm.badFilters } = serverErrors((error.body.errors ?? {}) as Record<string, string>));
        if (ruleForm.badFilters.length) ruleForm.advancedOpen = true;
        return ctx.toast.warning(ctx.t('rules.form.invalid'));
      }
      throw new Error(ctx.t('rules.error.create'));
    } finally {
      ruleForm.busy = false;
    }
  },
});

// e, a row's Modifier button, the toolbar and the palette: the rule in the same form as a creation, in a dialog.
defineCommand<RuleArgs, OnScreen>({
  id: 'rules.edit',
  title: 'rules.edit',
  section,
  scope,
  keys: ['e'],
  menus: [{ id: 'rules.actions', group: 'open', order: 2, inline: true }],
  requires: 'admin',
  when: onRule,
  run: (ctx, args) => {
    const target = ruleOf(ctx, args);
    if (!target) return;
    // The rule as last read, which a live update may have changed since the row was drawn.
    const rule = queryClient.getQueryData(rulesQuery(ctx.rules.customerId).queryKey)?.find((r) => r.id === target.id) ?? target;
    openRuleEdit(rule.id, draftOf(rule));
  },
});

// Checks the edited rule as a creation, then PATCHes it; a refusal is shown field by field, the dialog stays open.
defineCommand({
  id: 'rules.save',
  title: 'rules.save',
  section,
  scope,
  menus: [{ id: 'rules.editForm', order: 1, tone: 'primary' }],
  requires: 'admin',
  when: (ctx) => onScreen(ctx) && ruleEdit.id !== null && !ruleEdit.form.busy,
  run: async (ctx) => {
    const form = ruleEdit.form;
    const { errors, badFilters, payload } = checkRule(form.draft, cachedLandings());
    form.errors = errors;
    form.badFilters = badFilters;
    if (!payload) return ctx.toast.warning(ctx.t('rules.form.invalid'));
    form.busy = true;
    try {
      await updateRule(ruleEdit.id!, payload);
      ruleEdit.id = null;
      ctx.toast.success(ctx.t('rules.toast.updated'));
      await reload();
    } catch (error) {
      if (error instanceof ApiError && error.body?.status === false) {
        ({ errors: form.errors, badFilters: form.badFilters } = serverErrors((error.body.errors ?? {}) as Record<string, string>));
        if (form.badFilters.length) form.advancedOpen = true;
        return ctx.toast.warning(ctx.t('rules.form.invalid'));
      }
      await reload();
      throw new Error(ctx.t('rules.error.action'), { cause: error });
    } finally {
      form.busy = false;
    }
  },
});
