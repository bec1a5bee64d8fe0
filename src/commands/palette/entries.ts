/**
 * What the palette lists. Every entry runs a command (with arguments for the jumps), so the
 * palette goes through runCommand like every other surface and honours `requires` and `when`.
 */
import type { Landing } from '../../api/landings/contract';
import type { Translate } from '../../i18n';
import { languageNames, type Language } from '../../i18n';
import { sizes } from '../../state/ui';
import type { CommandContext } from '../context';
import { allCommands, getCommand, isAvailable } from '../registry';
import { normalise, type Searchable } from './search';

export const groupOrder = ['actions', 'screens', 'landings', 'facebook', 'customers', 'users', 'preferences', 'recent'] as const;
export type PaletteGroup = (typeof groupOrder)[number];

export interface PaletteEntry extends Searchable {
  key: string;
  group: PaletteGroup;
  label: string;
  hint?: string;
  command: string;
  args?: unknown;
  shortcut?: string;
}

export type EntrySeed = Omit<PaletteEntry, 'haystack'>;

export const makeEntry = (seed: EntrySeed, keywords = ''): PaletteEntry => ({
  ...seed,
  haystack: normalise(`${seed.label} ${seed.hint ?? ''} ${keywords}`),
});

const available = (ctx: CommandContext, id: string) => {
  const command = getCommand(id);
  return command !== undefined && isAvailable(command, ctx);
};

/** Commands available here and now, other than the jumps (listed as screens). */
export function actionEntries(ctx: CommandContext, t: Translate): PaletteEntry[] {
  return allCommands()
    .filter((c) => c.palette !== false && c.section !== 'navigation' && isAvailable(c, ctx))
    .map((c) =>
      makeEntry({ key: `action:${c.id}`, group: 'actions', label: t(c.title), command: c.id, shortcut: c.keys?.[0] }, c.id),
    );
}

/** One jump per screen the user may open. */
export function screenEntries(ctx: CommandContext, t: Translate): PaletteEntry[] {
  const jumps: [string, string, unknown?][] = [
    ['nav.home', t('shell.screen.home')],
    ['nav.landings', t('commands.nav.landings')],
    ['nav.production', t('commands.palette.production', { name: 'PAC' }), { category: 'pac' }],
    ['nav.production', t('commands.palette.production', { name: 'PV' }), { category: 'pv' }],
    ['nav.production', t('commands.palette.production', { name: t('shell.menu.other') }), { category: 'other' }],
    ['nav.customers', t('shell.menu.customers')],
    ['nav.rules', t('shell.menu.rules')],
    ['nav.users', t('shell.menu.users')],
    ['nav.exports', t('shell.menu.exports')],
    ['nav.taboola', t('shell.menu.taboola')],
  ];
  return jumps
    .filter(([id]) => available(ctx, id))
    .map(([id, label, args], i) => {
      const first = jumps.findIndex(([other]) => other === id) === i;
      return makeEntry({
        key: `screen:${id}:${i}`,
        group: 'screens',
        label,
        command: id,
        args,
        shortcut: first ? getCommand(id)?.keys?.[0] : undefined,
      });
    });
}

export function landingEntries(landings: readonly Landing[], group: 'landings' | 'facebook'): PaletteEntry[] {
  return landings.map((l) =>
    makeEntry({ key: `${group}:${l.id}`, group, label: l.name, hint: `#${l.id}`, command: 'nav.landing', args: { id: l.id } }, l.category),
  );
}

export interface NamedEntity {
  id: number;
  name: string;
  email?: string;
}

/** Customers jump to their rules, users to their exports. */
export function entityEntries(items: readonly NamedEntity[], group: 'customers' | 'users', keywords: string): PaletteEntry[] {
  const command = group === 'customers' ? 'nav.rules' : 'nav.exports';
  return items.map((item) =>
    makeEntry(
      {
        key: `${group}:${item.id}`,
        group,
        label: item.name,
        hint: item.email,
        command,
        args: group === 'customers' ? { customerId: item.id } : { userId: item.id },
      },
      keywords,
    ),
  );
}

export function preferenceEntries(ctx: CommandContext, t: Translate, current: { language: Language; size: string }): PaletteEntry[] {
  if (!available(ctx, 'shell.language')) return [];
  const languages = (Object.keys(languageNames) as Language[])
    .filter((l) => l !== current.language)
    .map((language) =>
      makeEntry(
        { key: `pref:language:${language}`, group: 'preferences', label: t('commands.palette.language', { name: languageNames[language] }), command: 'shell.language', args: { language } },
        'langue language',
      ),
    );
  const sizeEntries = sizes
    .filter((s) => s !== current.size)
    .map((size) =>
      makeEntry(
        { key: `pref:size:${size}`, group: 'preferences', label: t('commands.palette.size', { name: t(`shell.size.${size}`) }), command: 'shell.size', args: { size } },
        'taille size',
      ),
    );
  return [...languages, ...sizeEntries];
}
