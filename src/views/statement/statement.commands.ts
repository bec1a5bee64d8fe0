/**
 * The statement screen's commands — the month before and after, downloading the month as pdf,
 * xlsx or csv, back to the customers — and the palette's 'Relevé de <client>' for each customer.
 * The screen provides `ctx.statement`.
 */
import { queryOptions } from '@tanstack/react-query';
import { statementFormats, type Customer, type StatementFormat } from '../../api/customers/contract';
import { customersQuery } from '../../api/customers/queries';
import { downloadStatement } from '../../api/customers/requests';
import { queryClient } from '../../api/queryClient';
import type { CommandContext, ContextWith } from '../../commands/context';
import { definePaletteSource } from '../../commands/palette/sources';
import { defineCommand } from '../../commands/registry';
import { hrefOf } from '../../commands/screens';
import { shiftMonth, statementView, type StatementCommandContext } from './store';

declare module '../../commands/registry' {
  interface MenuRegistry {
    'statement.actions': true;
  }
}

declare module '../../commands/context' {
  interface CommandContextExtensions {
    statement: StatementCommandContext;
  }
}

// The customers list again, under a key of its own (the palette runs its sources' queries side by
// side, and one query twice is refused), read from the customers query's cache when fresh.
const statementsQuery = queryOptions({
  queryKey: ['customers', 'palette', 'statements'],
  queryFn: () => queryClient.fetchQuery(customersQuery),
  staleTime: 30_000,
});

definePaletteSource<Customer>({
  id: 'statements',
  order: 41,
  requires: 'admin',
  query: statementsQuery,
  entries: (customers, t) =>
    customers.map((c) => ({
      key: String(c.id),
      label: t('statement.of', { name: c.name }),
      hint: c.email,
      command: 'nav.statement',
      args: { customerId: c.id },
    })),
});

const section = 'statement';
const scope = 'statement';
type OnScreen = ContextWith<'statement'>;
const onScreen = (ctx: CommandContext): ctx is OnScreen => ctx.statement !== undefined;

function monthCommand(id: 'statement.previousMonth' | 'statement.nextMonth', keys: string[], step: -1 | 1, order: number) {
  defineCommand({
    id,
    title: id,
    section,
    scope,
    keys,
    menus: [{ id: 'statement.actions', group: 'month', order }],
    requires: 'admin',
    // No statement of a month to come.
    when: (ctx): ctx is OnScreen => onScreen(ctx) && (step < 0 || ctx.statement.month < ctx.statement.currentMonth),
    run: (ctx) => ctx.navigate(hrefOf('statement', { customerId: ctx.statement.customerId }, { month: shiftMonth(ctx.statement.month, step) })),
  });
}

monthCommand('statement.previousMonth', ['p'], -1, 1);
monthCommand('statement.nextMonth', ['n'], 1, 2);

const formatKeys: Record<StatementFormat, string> = { pdf: 'd', xlsx: 'e', csv: 'c' };

statementFormats.forEach((format, i) => {
  defineCommand({
    id: `statement.download.${format}`,
    title: `statement.download.${format}`,
    section,
    scope,
    keys: [formatKeys[format]],
    menus: [{ id: 'statement.actions', group: 'file', order: i + 1, tone: i === 0 ? 'primary' : undefined }],
    requires: 'admin',
    when: (ctx): ctx is OnScreen => onScreen(ctx) && !statementView.busy,
    run: async (ctx) => {
      const { customerId, month } = (ctx as OnScreen).statement;
      statementView.busy = true;
      try {
        const name = await downloadStatement(customerId, month, format);
        ctx.toast.success(ctx.t('statement.toast.downloaded', { name }));
      } catch (error) {
        throw new Error(ctx.t('statement.error.download'), { cause: error });
      } finally {
        statementView.busy = false;
      }
    },
  });
});

defineCommand({
  id: 'statement.openCustomers',
  title: 'statement.openCustomers',
  section,
  scope,
  menus: [{ id: 'statement.actions', group: 'nav', order: 1 }],
  requires: 'admin',
  when: onScreen,
  run: (ctx) => ctx.navigate(hrefOf('customers', {})),
});
