// @vitest-environment jsdom
// Two options of the generic grid: a list without selection (the map's Statistiques, the Lives
// and administration lists: no check column, x/Space/Ctrl+click select nothing) and a row's
// context menu (right click, the menu key or Shift+F10: the commands of that menu, on that row).
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { provideCommandContext } from '../../../../src/commands/context';
import { installHotkeys } from '../../../../src/commands/hotkeys';
import { defineCommand, undefineCommand, type MenuId } from '../../../../src/commands/registry';
import { Grid } from '../../../../src/grid/Grid';
import { localLoader } from '../../../../src/grid/localRows';
import type { GridColumnSpec, GridHandle, GridSelectionInfo, Row } from '../../../../src/grid/types';
import { gridDom, intl, staff, t } from '../gridHarness';
import { IntlProvider } from '../../../../src/i18n/provider';
import { ui } from '../../../../src/state/ui';

declare module '../../../../src/commands/registry' {
  interface MenuRegistry {
    'test.row': true;
    'test.keys': true;
    'test.letters': true;
    'test.admin': true;
  }
}

const stops = gridDom();

const rows: Row[] = [
  { id: 'FR-13', name: 'Bouches-du-Rhône', value: 12 },
  { id: 'FR-30', name: 'Gard', value: 411 },
  { id: 'FR-34', name: 'Hérault', value: 7 },
];
const columns: GridColumnSpec[] = [
  { key: 'name', label: 'Département', kind: 'text' },
  { key: 'value', label: 'Leads', kind: 'number' },
];

function setup(props: { selectable?: boolean; rowMenu?: { menu: MenuId; label: string } } = {}) {
  const handle = createRef<GridHandle>();
  let info: GridSelectionInfo | undefined;
  stops.push(installHotkeys(), provideCommandContext({ user: staff }).remove);
  ui.language = 'fr';
  // The row menu's items are the registry's commands, titled in the user's language.
  render(
    <IntlProvider initial={intl}>
      <Grid
        loader={localLoader(async () => rows, columns)}
        columns={columns}
        queryKey="q"
        label="Statistiques"
        t={t}
        handleRef={handle}
        onSelectionChange={(i) => (info = i)}
        {...props}
      />
    </IntlProvider>,
  );
  return { handle, info: () => info!, grid: screen.getByRole('grid'), user: userEvent.setup() };
}

describe('a grid without selection', () => {
  it('has no check column and selects nothing by key or click; the focus still moves', async () => {
    const { grid, user, info, handle } = setup({ selectable: false });
    await screen.findByText('Gard');
    expect(screen.queryAllByRole('checkbox')).toEqual([]);
    expect(grid.hasAttribute('aria-multiselectable')).toBe(false);
    expect(grid.getAttribute('aria-colcount')).toBe('2');
    expect(
      screen
        .getAllByRole('row')
        .filter((r) => r.hasAttribute('data-index'))
        .every((r) => !r.hasAttribute('aria-selected')),
    ).toBe(true);
    expect(handle.current!.selectable).toBe(false);
    grid.focus();
    await user.keyboard('jx {Shift>}J{/Shift}{Control>}a{/Control}');
    await user.keyboard('{Control>}');
    await user.click(screen.getByText('Hérault'));
    await user.keyboard('{/Control}');
    await waitFor(() => expect(info().focusedId).toBe('FR-34'));
    expect(info().selected.size).toBe(0);
    expect(info().allMatching).toBe(false);
  });

  it('keeps the check column where a list selects (the default)', async () => {
    setup();
    await screen.findByText('Gard');
    expect(screen.getAllByRole('checkbox').length).toBeGreaterThan(3);
  });
});

describe("a row's context menu", () => {
  it('opens on a right click with the commands of its menu, on the row clicked, and runs them', async () => {
    const ran: unknown[] = [];
    defineCommand({
      id: 'test.rowWhy',
      title: 'leads.explainRouting',
      section: 'leads',
      requires: 'staff',
      menus: [{ id: 'test.row', order: 1 }],
      run: (ctx) => void ran.push(ctx.grid?.focusedRow()?.id),
    });
    stops.push(() => undefineCommand('test.rowWhy'));
    const { user } = setup({ rowMenu: { menu: 'test.row', label: 'Actions sur le lead' } });
    fireEvent.contextMenu(await screen.findByText('Hérault'));
    const menu = await screen.findByRole('menu', { name: 'Actions sur le lead' });
    await user.click(within(menu).getByRole('menuitem', { name: /Pourquoi ce client/ }));
    await waitFor(() => expect(ran).toEqual(['FR-34']));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('opens on Shift+F10 and the menu key for the focused row', async () => {
    defineCommand({
      id: 'test.rowKey',
      title: 'leads.explainRouting',
      section: 'leads',
      requires: 'staff',
      menus: [{ id: 'test.keys', order: 1 }],
      run: () => {},
    });
    stops.push(() => undefineCommand('test.rowKey'));
    const { grid, user } = setup({ rowMenu: { menu: 'test.keys', label: 'Actions' } });
    await screen.findByText('Gard');
    grid.focus();
    await user.keyboard('j{Shift>}{F10}{/Shift}');
    await screen.findByRole('menu', { name: 'Actions' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    fireEvent.keyDown(grid, { key: 'ContextMenu' });
    await screen.findByRole('menu', { name: 'Actions' });
  });

  it("keeps the list's keys away while the menu is open: letters belong to the menu", async () => {
    defineCommand({
      id: 'test.rowKeys',
      title: 'leads.explainRouting',
      section: 'leads',
      requires: 'staff',
      menus: [{ id: 'test.letters', order: 1 }],
      run: () => {},
    });
    stops.push(() => undefineCommand('test.rowKeys'));
    const { user, info } = setup({ rowMenu: { menu: 'test.letters', label: 'Actions' } });
    fireEvent.contextMenu(await screen.findByText('Gard'));
    await screen.findByRole('menu', { name: 'Actions' });
    await user.keyboard('xj');
    expect(info().selected.size).toBe(0);
    expect(info().focusedId).toBe('FR-30');
  });

  it("leaves the browser's own menu to a user none of its commands is for", async () => {
    defineCommand({
      id: 'test.rowAdmin',
      title: 'leads.explainRouting',
      section: 'leads',
      requires: 'admin',
      menus: [{ id: 'test.admin', order: 1 }],
      run: () => {},
    });
    stops.push(() => undefineCommand('test.rowAdmin'));
    setup({ rowMenu: { menu: 'test.admin', label: 'Actions' } });
    const shown = fireEvent.contextMenu(await screen.findByText('Gard'));
    expect(shown).toBe(true);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
