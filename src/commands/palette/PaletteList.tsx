import { Command } from 'cmdk';
import { useMemo, useState } from 'react';
import { useT } from '../../i18n/provider';
import { Shortcut } from '../Shortcut';
import { groupOrder, type PaletteEntry, type PaletteGroup } from './entries';
import { filterEntries, queryWords } from './search';

/** Rows per group: enough to choose from; a typed word narrows the rest. */
const CAP_EMPTY = 8;
const CAP_QUERY = 12;
const CAP_SECTION = 50;

interface Props {
  entries: readonly PaletteEntry[];
  onRun: (entry: PaletteEntry) => void;
  /** When set, only these groups are listed (e.g. 'g l' lists the landings). */
  only?: readonly PaletteGroup[];
  placeholder: string;
}

/**
 * The palette's body: cmdk for the keyboard and ARIA (arrows, enter, active item), fed with
 * entries already matched and capped per group (shouldFilter off), so a keystroke re-renders a
 * few dozen rows whatever the number of entries.
 */
export function PaletteList({ entries, onRun, only, placeholder }: Props) {
  const t = useT();
  const [query, setQuery] = useState('');
  const groups = useMemo(() => {
    const words = queryWords(query);
    const cap = only ? CAP_SECTION : words.length ? CAP_QUERY : CAP_EMPTY;
    const byGroup = new Map<PaletteGroup, PaletteEntry[]>();
    for (const entry of filterEntries(entries, words)) {
      if (only && !only.includes(entry.group)) continue;
      const list = byGroup.get(entry.group);
      if (list) list.push(entry);
      else byGroup.set(entry.group, [entry]);
    }
    return groupOrder
      .filter((g) => byGroup.has(g))
      .map((g) => {
        const all = byGroup.get(g)!;
        const limit = g === 'actions' || g === 'screens' ? Math.max(cap, CAP_QUERY) : cap;
        return { group: g, items: all.slice(0, limit), more: Math.max(0, all.length - limit) };
      });
  }, [entries, query, only]);

  return (
    <Command shouldFilter={false} loop label={placeholder} className="palette-command">
      <Command.Input value={query} onValueChange={setQuery} placeholder={placeholder} className="palette-input" autoFocus />
      <Command.List className="palette-list">
        <Command.Empty className="palette-empty">{t('commands.palette.empty')}</Command.Empty>
        {groups.map(({ group, items, more }) => (
          <Command.Group key={group} heading={t(`commands.palette.group.${group}`)} className="palette-group">
            {items.map((entry) => (
              <Command.Item key={entry.key} value={entry.key} onSelect={() => onRun(entry)} className="palette-item">
                <span className="palette-label">{entry.label}</span>
                {entry.hint ? <span className="palette-hint">{entry.hint}</span> : null}
                {entry.shortcut ? <Shortcut keys={entry.shortcut} /> : null}
              </Command.Item>
            ))}
            {more ? <div className="palette-more">{t('commands.palette.more', { count: more })}</div> : null}
          </Command.Group>
        ))}
      </Command.List>
    </Command>
  );
}
