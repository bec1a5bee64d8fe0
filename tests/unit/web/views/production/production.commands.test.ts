// The production map's commands and its palette source, run through the registry as the map's
// clicks, keys, buttons and the palette run them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../../src/api/auth/contract';
import type { DepartmentCode } from '../../../../../src/api/productions/contract';
import { provideCommandContext } from '../../../../../src/commands/context';
import { sourceEntries } from '../../../../../src/commands/palette/entries';
import { filterEntries, queryWords } from '../../../../../src/commands/palette/search';
import { paletteSources } from '../../../../../src/commands/palette/sources';
import { getCommand, runCommand } from '../../../../../src/commands/registry';
// Paths come from the screen declarations (hrefOf).
import '../../../../../src/app/screens';
import '../../../../../src/views/production/production.commands';
import { productionView, type ProductionCommandContext } from '../../../../../src/views/production/store';

const staff: User = { id: 2, email: 'staff@x.fr', name: 'Staff', admin: false, role: 'normal' };
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function onMap(selected: DepartmentCode[] = ['FR-30', 'FR-34']) {
  const production: ProductionCommandContext = {
    category: 'pv',
    selected,
    active: 'FR-13',
    landings: [3, 5],
    select: vi.fn(async () => {}),
    setActive: vi.fn(),
    move: vi.fn(),
    focusMap: vi.fn(),
    saveNote: vi.fn(async () => {}),
    noteOf: () => '',
    nameOf: (c) => c,
  };
  const navigate = vi.fn();
  const handle = provideCommandContext({ user: staff, view: 'production', navigate, production });
  cleanups.push(handle.remove);
  return { production, navigate };
}

describe('production commands', () => {
  it('select sets the selection to one department, toggle adds or removes one (the focused one by default)', async () => {
    const { production } = onMap();
    await runCommand('production.select', { code: 'FR-84' }, 'button');
    expect(production.select).toHaveBeenLastCalledWith(['FR-84']);
    await runCommand('production.toggle', { code: 'FR-84' }, 'button');
    expect(production.select).toHaveBeenLastCalledWith(['FR-30', 'FR-34', 'FR-84']);
    await runCommand('production.toggle', { code: 'FR-30' }, 'button');
    expect(production.select).toHaveBeenLastCalledWith(['FR-34']);
    await runCommand('production.select', undefined, 'hotkey');
    expect(production.select).toHaveBeenLastCalledWith(['FR-13']);
  });

  it('note opens the Tips dialog on the department, saveNote saves it, move moves the focus', async () => {
    const { production } = onMap();
    await runCommand('production.note', { code: 'FR-2A' }, 'button');
    expect(productionView.noteFor).toBe('FR-2A');
    expect(production.setActive).toHaveBeenCalledWith('FR-2A');
    productionView.noteFor = null;
    await runCommand('production.saveNote', { code: 'FR-2A', text: '<b>x</b>' }, 'button');
    expect(production.saveNote).toHaveBeenCalledWith('FR-2A', '<b>x</b>');
    await runCommand('production.move.left', undefined, 'hotkey');
    expect(production.move).toHaveBeenCalledWith('left');
  });

  it('colour: one palette choice per colour and one to take it off, saved with the selection', async () => {
    const { production } = onMap();
    const ctx = { t: (id: string, v?: Record<string, string | number>) => `${id}${v ? JSON.stringify(v) : ''}` };
    const choices = getCommand('production.color')!.choices!(ctx as never);
    expect(choices).toHaveLength(7);
    await runCommand('production.color', { color: '#16a34a' }, 'palette');
    expect(productionView.color).toBe('#16a34a');
    expect(production.select).toHaveBeenLastCalledWith(['FR-30', 'FR-34'], '#16a34a');
    // Taking the colour off is a choice too: the next selections go without one ('none'), where
    // a user who never chose one only looks (the screen's 'keep').
    await runCommand('production.color', { color: null }, 'palette');
    expect(productionView.color).toBe('none');
    expect(production.select).toHaveBeenLastCalledWith(['FR-30', 'FR-34'], 'none');
  });

  it('openLeads opens the lead view of the landings filtered on the department', async () => {
    const { navigate } = onMap();
    await runCommand('production.openLeads', { code: 'FR-2A' }, 'button');
    expect(navigate).toHaveBeenCalledWith('/landings_test/3,5?departement=2A');
  });

  it('jump selects and focuses on the map, or opens the PAC map there from another screen', async () => {
    const { production } = onMap();
    await runCommand('production.jump', { code: 'FR-34' }, 'palette');
    expect(production.setActive).toHaveBeenCalledWith('FR-34');
    expect(production.focusMap).toHaveBeenCalled();
    expect(production.select).toHaveBeenLastCalledWith(['FR-34']);
    cleanups.splice(0).forEach((c) => c());
    const navigate = vi.fn();
    cleanups.push(provideCommandContext({ user: staff, view: 'leads', navigate }).remove);
    await runCommand('production.jump', { code: 'FR-2A' }, 'palette');
    expect(navigate).toHaveBeenCalledWith('/production/pac?departement=FR-2A');
    expect(getCommand('production.select')!.when!({ production: undefined } as never, undefined)).toBe(false);
  });
});

describe('departments in the palette', () => {
  it('finds a department by name or code, whatever the accents and case', async () => {
    const source = paletteSources().find((s) => s.id === 'departments')!;
    const items = await (source.query.queryFn as () => Promise<unknown[]>)();
    const entries = sourceEntries(source, items, (id) => id);
    expect(entries).toHaveLength(101);
    const first = (q: string) => filterEntries(entries, queryWords(q))[0];
    expect(first('herault')).toMatchObject({ label: 'Hérault', command: 'production.jump', args: { code: 'FR-34' } });
    expect(first('HÉRAULT')?.label).toBe('Hérault');
    expect(first('2a')?.label).toBe('Corse-du-Sud');
    expect(first('2B')?.label).toBe('Haute-Corse');
    expect(first('seine saint denis')?.label).toBe('Seine-Saint-Denis');
    expect(first('974')?.label).toBe('La Réunion');
  });
});
