// @vitest-environment jsdom
// What the Lives lists ask of the generic grid: drawn cells, columns neither sorted nor filtered,
// and a row opened by Enter or a double click (never Enter on a button).
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { provideCommandContext } from '../../../../src/commands/context';
import { installHotkeys } from '../../../../src/commands/hotkeys';
import { Grid } from '../../../../src/grid/Grid';
import { localLoader } from '../../../../src/grid/localRows';
import type { GridColumnSpec, Row } from '../../../../src/grid/types';
import { gridDom, staff, t } from '../gridHarness';

const stops = gridDom();

const rows: Row[] = [
  { id: 1, name: 'Règle Gard', count: 3 },
  { id: 2, name: 'Règle Hérault', count: 7 },
];

function setup() {
  const opened: unknown[] = [];
  const pressed: unknown[] = [];
  const columns: GridColumnSpec[] = [
    { key: 'name', label: 'Nom', kind: 'text' },
    { key: 'count', label: 'Nombre', kind: 'number', cell: (row) => <meter aria-label={`fill ${row.id}`} value={Number(row.count)} max={10} /> },
    {
      key: 'actions',
      label: 'Actions',
      kind: 'text',
      sort: false,
      filter: false,
      cell: (row) => (
        <button type="button" tabIndex={-1} onClick={() => pressed.push(row.id)}>
          Ouvrir {String(row.id)}
        </button>
      ),
    },
  ];
  stops.push(installHotkeys(), provideCommandContext({ user: staff }).remove);
  render(<Grid loader={localLoader(async () => rows, columns)} columns={columns} queryKey="q" label="Règles" t={t} onOpen={(row) => opened.push(row.id)} />);
  return { opened, pressed, grid: screen.getByRole('grid'), user: userEvent.setup() };
}

describe('Grid for whole lists', () => {
  it('draws cells, leaves plain columns without sort or filter, opens the focused row on Enter and on a double click', async () => {
    const { opened, pressed, grid, user } = setup();
    await screen.findByLabelText('fill 2');
    expect(screen.getAllByRole('searchbox')).toHaveLength(2);
    expect(screen.queryByTitle(/Trier.*Actions/)).toBeNull();
    grid.focus();
    await user.keyboard('j{Enter}');
    expect(opened).toEqual([2]);
    fireEvent.doubleClick(screen.getByText('Règle Gard'));
    expect(opened).toEqual([2, 1]);
    // A row's button does its own job: no opening on top of it.
    const button = screen.getByRole('button', { name: 'Ouvrir 2' });
    await user.click(button);
    fireEvent.doubleClick(button);
    expect(pressed).toEqual([2]);
    expect(opened).toEqual([2, 1]);
    // Enter on a focused button is the button's.
    screen.getAllByRole('button')[0].focus();
    await user.keyboard('{Enter}');
    expect(opened).toEqual([2, 1]);
  });

  it('filters the whole list in the browser', async () => {
    const { grid, user } = setup();
    await screen.findByLabelText('fill 2');
    await user.type(screen.getAllByRole('searchbox')[0], 'herault');
    await waitFor(() => expect(grid.getAttribute('aria-rowcount')).toBe('3'));
    expect(screen.queryByText('Règle Gard')).toBeNull();
  });
});
