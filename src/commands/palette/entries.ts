/**
 * What the palette lists. Every entry runs a command (with arguments for the jumps and the
 * choices), so the palette goes through runCommand like every other surface and honours
 * `requires` and `when`: the actions available here, the screens, the landings, customers and
 * users, and one entry per choice of the commands that take arguments.
 */
import type { Translate } from '../../i18n';
import type { CommandContext } from '../context';
import { allCommands, getCommand, isAvailable } from '../registry';
import { allScreens, entriesOf, menuGroups, navCommandId } from '../screens';
import { foldText } from '../../shared/foldText';
import type { Searchable } from './search';
import type { PaletteSource } from './sources';

/** 'actions', 'screens', a source's id, 'choices' or 'recent'; titled `commands.palette.group.<group>`. */
export type PaletteGroup = string;

export interface PaletteEntry extends Searchable {
  key: string;
  group: PaletteGroup;
  label: string;
  hint?: string;
  command: string;
  args?: unknown;
  shortcut?: string;
}

export type EntrySeed = Omit<PaletteEntry, keyof Searchable>;

export const makeEntry = (seed: EntrySeed, keywords = ''): PaletteEntry => ({
  ...seed,
  haystack: foldText(`${seed.label} ${seed.hint ?? ''} ${keywords}`),
  labelLength: foldText(seed.label).length,
});

const available = (ctx: CommandContext, id: string) => {
  const command = getCommand(id);
  return command !== undefined && isAvailable(command, ctx);
};

/** Commands available here and now that run without arguments. */
export function actionEntries(ctx: CommandContext, t: Translate): PaletteEntry[] {
  return allCommands()
    .filter((c) => c.palette !== false && !c.choices && isAvailable(c, ctx))
    .map((c) => makeEntry({ key: `action:${c.id}`, group: 'actions', label: t(c.title), command: c.id, shortcut: c.keys?.[0] }, c.id));
}

/** One jump per entry point of every screen the user may open (Production PAC, PV, Autres…). */
export function screenEntries(ctx: CommandContext, t: Translate): PaletteEntry[] {
  return allScreens().flatMap((screen) =>
    entriesOf(screen).flatMap((entry, i) => {
      const id = navCommandId(screen, i);
      if (!available(ctx, id)) return [];
      const group = menuGroups.find((g) => g.id === entry.menu?.group);
      const keywords = [entry.menu?.label ? t(entry.menu.label) : '', group ? t(group.title) : '', t(screen.title)].join(' ');
      return [makeEntry({ key: `screen:${id}`, group: 'screens', label: t(entry.title ?? screen.title), command: id, shortcut: entry.keys?.[0] }, keywords)];
    }),
  );
}

/** One entry per choice of the commands that take arguments (languages, sizes, views, landings to convert to…). */
export function choiceEntries(ctx: CommandContext, t: Translate): PaletteEntry[] {
  return allCommands()
    .filter((c) => c.choices && isAvailable(c, ctx))
    .flatMap((c) =>
      c.choices!(ctx).map((choice, i) =>
        makeEntry(
          { key: `choice:${c.id}:${i}:${choice.label}`, group: 'choices', label: choice.label, hint: choice.hint, command: c.id, args: choice.args },
          t(c.title),
        ),
      ),
    );
}

/** The entries of a palette source's items (sources.ts). */
export function sourceEntries(source: PaletteSource, items: readonly unknown[], t: Translate): PaletteEntry[] {
  return source
    .entries(items, t)
    .map((e) => makeEntry({ key: `${source.id}:${e.key}`, group: source.id, label: e.label, hint: e.hint, command: e.command, args: e.args }, e.keywords));
}
