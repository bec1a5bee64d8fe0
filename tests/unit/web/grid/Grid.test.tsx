// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createIntl } from '@formatjs/intl';
import { createRef } from 'react';
import { I18nProvider } from 'react-aria-components';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Grid } from '../../../../src/grid/Grid';
import { keysToColumns } from '../../../../src/grid/columns';
import type { GridHandle, GridSelectionInfo, PageRequest, Row, RowLoader } from '../../../../src/grid/types';
import fr from '../../../../src/i18n/fr.json';
import { provideCommandContext } from '../../../../src/commands/context';
import { installHotkeys } from '../../../../src/commands/hotkeys';
import { toneOf } from '../../../../src/views/leads/tone';
import { patchDom } from '../domPatch';

const intl = createIntl({ locale: 'fr', messages: fr });
const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);

// jsdom has no layout: give the scroll area the size a browser would.
let undoLayout = () => {};
beforeAll(() => {
  const gridSize = (size: number) => ({
    get(this: HTMLElement) {
      return this.classList.contains('lg-grid') ? size : 0;
    },
  });
  undoLayout = patchDom(HTMLElement.prototype, { clientHeight: gridSize(600), clientWidth: gridSize(1000) });
});
afterAll(() => undoLayout());
const stops: (() => void)[] = [];
afterEach(() => {
  cleanup();
  while (stops.length) stops.pop()!();
});

const KEYS = ['id', 'created_at', 'nom', 'value', 'rapport_id'];
// As the lead list gives them: rapport_id stays in the rows, never on screen.
const COLUMNS = keysToColumns(KEYS).map((c) => (c.key === 'rapport_id' ? { ...c, hidden: true } : c));
const staff = { id: 1, email: 's@x.fr', name: 'S', admin: false, role: 'normal' as const };
const rowTone = (row: Row) => toneOf(row.value);

/** An in-memory list of `n` rows that answers like the server: filters, sort, paging. */
function memoryLoader(n: number) {
  let data: Row[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    created_at: `2025-01-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    nom: `Lead ${i + 1}`,
    value: i === 0 ? 120 : i === 1 ? 60 : 1,
    rapport_id: 7,
  }));
  const requests: PageRequest[] = [];
  const loader: RowLoader = async (req) => {
    requests.push(req);
    let rows = data;
    for (const [k, v] of Object.entries(req.filters)) rows = rows.filter((r) => String(r[k]).toLowerCase().includes(v.toLowerCase()));
    if (req.sort) {
      const { key, dir } = req.sort;
      rows = [...rows].sort((a, b) => (a[key]! < b[key]! ? -1 : a[key]! > b[key]! ? 1 : 0) * (dir === 'asc' ? 1 : -1));
    }
    return { rows: rows.slice(req.offset, req.offset + req.limit), total: rows.length, columns: COLUMNS };
  };
  return { loader, requests, remove: (id: number) => (data = data.filter((r) => r.id !== id)) };
}

function setup(n = 400) {
  const mem = memoryLoader(n);
  const handle = createRef<GridHandle>();
  let info: GridSelectionInfo | undefined;
  // The grid's keys are commands: the one hotkey listener and a signed-in user, as in the shell.
  const stopKeys = installHotkeys();
  const session = provideCommandContext({ user: staff });
  stops.push(stopKeys, session.remove);
  render(
    <I18nProvider locale="fr-FR">
      <Grid loader={mem.loader} queryKey="q" label="Leads" t={t} handleRef={handle} rowTone={rowTone} onSelectionChange={(i) => (info = i)} />
    </I18nProvider>,
  );
  return { ...mem, handle, info: () => info!, grid: screen.getByRole('grid'), user: userEvent.setup() };
}

const focusedRow = (grid: HTMLElement) => document.getElementById(grid.getAttribute('aria-activedescendant')!)!;
const selectedIds = (s: GridSelectionInfo) => [...s.selected].sort((a, b) => Number(a) - Number(b));

describe('Grid', () => {
  it('loads the first page, hides rapport_id and exposes grid semantics', async () => {
    const { grid, requests } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    expect(requests[0]).toMatchObject({ offset: 0, limit: 150 });
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toContain('nom');
    expect(headers).not.toContain('rapport_id');
    const rows = screen.getAllByRole('row').filter((r) => r.hasAttribute('data-index'));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(60);
    expect(rows[0].getAttribute('aria-rowindex')).toBe('3');
    expect(rows[0].className).toContain('tone-success');
    expect(rows[1].className).toContain('tone-warning');
    expect(rows[2].className).not.toContain('tone-');
  });

  it('is driven by the keyboard: j/k, x, shift+j ranges, mod+a then all matching, escape', async () => {
    const { grid, user, info } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    grid.focus();
    await user.keyboard('jj');
    expect(focusedRow(grid).dataset.index).toBe('2');
    await user.keyboard('x');
    expect(selectedIds(info())).toEqual([3]);
    expect(focusedRow(grid).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Shift>}JJ{/Shift}');
    expect(selectedIds(info())).toEqual([3, 4, 5]);
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(selectedIds(info())).toEqual([3, 4]);
    await user.keyboard('k ');
    expect(focusedRow(grid).dataset.index).toBe('2');
    expect(selectedIds(info())).toEqual([4]);
    await user.keyboard('{Escape}');
    expect(info().selected.size).toBe(0);

    await user.keyboard('{Control>}a{/Control}');
    expect(info().selected.size).toBe(150);
    await user.keyboard('{Control>}a{/Control}');
    expect(info().allMatching).toBe(true);
    await user.keyboard('{Escape}{Control>}a{/Control}');
    const offer = screen.getByRole('button', { name: /Sélectionner les 400 résultats/ });
    await user.click(offer);
    expect(info().allMatching).toBe(true);
    expect(screen.getByText(/Les 400 résultats correspondants sont sélectionnés/)).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(info().allMatching).toBe(false);
  });

  it('loads further pages as the focus moves down', async () => {
    const { grid, user, requests, info } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    grid.focus();
    await user.keyboard('{End}');
    await waitFor(() => expect(requests.some((r) => r.offset === 300)).toBe(true));
    // jsdom does not scroll: the row itself is checked in the browser tests.
    await waitFor(() => expect(info().focusedId).toBe(400));
    // Only the focused row's page, not the pages in between.
    expect(requests.map((r) => r.offset)).not.toContain(150);
  });

  it('is driven by the mouse: click focuses, checkbox toggles, shift+click extends', async () => {
    const { grid, user, info } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    await user.click(screen.getByText('Lead 2'));
    expect(focusedRow(grid).dataset.index).toBe('1');
    expect(info().selected.size).toBe(0);
    await user.click(screen.getByRole('checkbox', { name: 'Sélectionner la ligne 2' }));
    await user.keyboard('{Shift>}');
    await user.click(screen.getByText('Lead 5'));
    await user.keyboard('{/Shift}');
    expect(selectedIds(info())).toEqual([2, 3, 4, 5]);
    const all = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Sélectionner les lignes chargées' });
    expect(all.indeterminate).toBe(true);
    await user.click(all);
    expect(info().selected.size).toBe(0);
    await user.click(all);
    expect(info().selected.size).toBe(150);
  });

  it('sorts from the header and applies filters 400 ms after typing', async () => {
    const { grid, user, requests } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    await user.click(screen.getByRole('button', { name: 'nom' }));
    await waitFor(() => expect(requests.at(-1)!.sort).toEqual({ key: 'nom', dir: 'asc' }));
    expect(screen.getByRole('button', { name: 'nom' }).closest('[role=columnheader]')!.getAttribute('aria-sort')).toBe('ascending');
    await user.click(screen.getByRole('button', { name: 'nom' }));
    await waitFor(() => expect(requests.at(-1)!.sort).toEqual({ key: 'nom', dir: 'desc' }));

    const before = requests.length;
    await user.type(screen.getByRole('searchbox', { name: 'Filtrer nom' }), 'Lead 33');
    expect(requests.length).toBe(before);
    await waitFor(() => expect(requests.at(-1)!.filters).toEqual({ nom: 'Lead 33' }), { timeout: 5000 });
    expect(requests.length).toBe(before + 1);
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe(String(11 + 2)));
  });

  it('sends date filters as start<>end', async () => {
    const { grid, requests, user } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    // One Tab stop in the header: the button opens the two dates, typed day, month, year in French.
    await user.click(screen.getByRole('button', { name: /^Filtrer created_at/ }));
    const field = async (name: RegExp) => within((await screen.findAllByRole('group', { name }))[0]!).getAllByRole('spinbutton');
    await user.click((await field(/created_at\s:\sdu/))[0]!);
    await user.keyboard('02012025');
    await user.click((await field(/created_at\s:\sau/))[0]!);
    await user.keyboard('03012025');
    await waitFor(() => expect(requests.at(-1)!.filters).toEqual({ created_at: '2025-01-02<>2025-01-03' }), { timeout: 5000 });
  });

  it('keeps the focus on its lead after a refresh, and moves to the next lead when it left', async () => {
    const { grid, user, handle, remove } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    grid.focus();
    await user.keyboard('jjj');
    expect(focusedRow(grid).textContent).toContain('Lead 4');
    await act(() => handle.current!.refresh());
    expect(focusedRow(grid).textContent).toContain('Lead 4');
    remove(4);
    await act(() => handle.current!.refresh());
    expect(grid.getAttribute('aria-rowcount')).toBe('401');
    expect(focusedRow(grid).textContent).toContain('Lead 5');
  });

  it('tells the selection through its handle at once, before React re-renders', async () => {
    const { grid, handle } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    handle.current!.act({ type: 'toggle' });
    handle.current!.act({ type: 'move', delta: 1, extend: true });
    expect([...handle.current!.selection().selected]).toEqual([1, 2]);
    await waitFor(() => expect(grid.querySelectorAll('[aria-selected=true]')).toHaveLength(2));
  });

  it('selects the first n rows on demand', async () => {
    const { grid, handle, info } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    await act(() => handle.current!.selectFirst(320));
    expect(info().selected.size).toBe(320);
    expect(info().selected.has(320)).toBe(true);
  });

  it('resizes a column with the keyboard', async () => {
    const { grid, user } = setup();
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('402'));
    const handle = screen.getByRole('separator', { name: 'Largeur de la colonne nom' });
    handle.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(handle.getAttribute('aria-valuenow')).toBe('172');
    expect(grid.style.getPropertyValue('--lg-c2')).toBe('172px');
  });
});
