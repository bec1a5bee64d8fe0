// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import type { Customer } from '../../../../src/api/customers/contract';
import { customersQuery } from '../../../../src/api/customers/queries';
import { queryClient } from '../../../../src/api/queryClient';
import { CommandMenu } from '../../../../src/commands/CommandMenu';
import { provideCommandContext } from '../../../../src/commands/context';
import { customerEdit } from '../../../../src/views/customers/store';
import { admin, renderCommands } from '../commandsHarness';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  queryClient.clear();
  customerEdit.id = null;
});

const customer = (id: number, name: string): Customer =>
  ({
    id,
    name,
    email: `contact@${id}.fr`,
    active: true,
    webhook_url: null,
    webhook_secret: null,
    webhook_paused_at: null,
    rules: [],
    created_at: '2026-01-05T09:00:00Z',
  }) as unknown as Customer;

// A filter that removed the focused row leaves the list with none until the grid reports its new
// focus: a row's button, which names its own customer, must not wait for it.
it("a row's buttons act on their row while the list has no focused row; the toolbar's, on the focused one, wait", async () => {
  queryClient.setQueryData(customersQuery.queryKey, [customer(11, 'Chauffage Dupont'), customer(12, 'Isolation Martin')]);
  const customers = { tab: 'list' as const, showTab: () => {}, focused: undefined, grid: () => null };
  // The screen's own slot, as useProvideCommandContext keeps it.
  const onScreen = provideCommandContext({ customers });
  cleanups.push(onScreen.remove);
  const r = await renderCommands(
    admin,
    { view: 'customers' },
    <>
      <div role="row">
        <CommandMenu menu="customers.actions" variant="row" label="Isolation Martin" args={{ customerId: 12 }} />
      </div>
      <div role="toolbar">
        <CommandMenu menu="customers.actions" variant="toolbar" label="Actions" />
      </div>
    </>,
  );
  cleanups.push(r.cleanup);
  const inRow = (name: string) => screen.getByRole('row').querySelector<HTMLButtonElement>(`[data-command="${name}"]`)!;
  const inToolbar = (name: string) => screen.getByRole('toolbar').querySelector<HTMLButtonElement>(`[data-command="${name}"]`)!;

  for (const id of ['customers.openRules', 'customers.openStatement', 'customers.edit']) {
    expect(inRow(id).disabled, id).toBe(false);
    expect(inToolbar(id).getAttribute('data-disabled'), id).toBe('true');
  }
  const user = userEvent.setup();
  await user.click(inRow('customers.edit'));
  expect(customerEdit.id).toBe(12);
  await user.click(inRow('customers.openRules'));
  expect(r.navigations.at(-1)).toBe('/customers/rules/12');

  // A row whose customer is gone from the list (deleted meanwhile) offers nothing.
  queryClient.setQueryData(customersQuery.queryKey, [customer(11, 'Chauffage Dupont')]);
  onScreen.update({ customers: { ...customers } });
  await waitFor(() => expect(inRow('customers.edit').disabled).toBe(true));
});
