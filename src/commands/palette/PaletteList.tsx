import { useVirtualizer } from '@tanstack/react-virtual';
import { Command } from 'cmdk';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../../i18n/provider';
import { Shortcut } from '../Shortcut';
import type { PaletteEntry, PaletteGroup } from './entries';
import { queryWords, rankEntries } from './search';

const HEADING_HEIGHT = 30;
const ITEM_HEIGHT = 38;
const PAGE = 8;

/** Groups of equal best match in this order; the sources' groups (landings, customers…) keep theirs between screens and choices. */
const groupRank = (group: PaletteGroup) => ({ actions: 0, screens: 1, choices: 8, recent: 9 })[group] ?? 2;

type Row = { kind: 'heading'; group: PaletteGroup } | { kind: 'item'; entry: PaletteEntry };

interface Props {
  entries: readonly PaletteEntry[];
  onRun: (entry: PaletteEntry) => void;
  /** When set, only these groups are listed (e.g. 'g l' lists the landings). */
  only?: readonly PaletteGroup[];
  placeholder: string;
}

/**
 * The palette's body: cmdk for the input, the ARIA and Enter, fed with entries already matched
 * (shouldFilter off) and drawn by a virtualizer, so every entry is reachable with the arrows and a
 * keystroke renders the rows on screen whatever the number of entries. The arrows, Home, End and
 * the page keys move the active entry here, over all rows, not only the mounted ones.
 */
export function PaletteList({ entries, onRun, only, placeholder }: Props) {
  const t = useT();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState('');
  const listRef = useRef<HTMLDivElement>(null);

  // Groups follow their best match (a rule's exact name before a customer listing it), then their order.
  const rows = useMemo(() => {
    const byGroup = new Map<PaletteGroup, { best: number; entries: PaletteEntry[] }>();
    rankEntries(entries, queryWords(query)).forEach((ranked, best) => {
      for (const entry of ranked) {
        if (only && !only.includes(entry.group)) continue;
        const group = byGroup.get(entry.group);
        if (group) group.entries.push(entry);
        else byGroup.set(entry.group, { best, entries: [entry] });
      }
    });
    const groups = [...byGroup].sort(([a, x], [b, y]) => x.best - y.best || groupRank(a) - groupRank(b));
    return groups.flatMap(([group, { entries }]): Row[] => [{ kind: 'heading', group }, ...entries.map((entry): Row => ({ kind: 'item', entry }))]);
  }, [entries, query, only]);
  const items = useMemo(() => rows.flatMap((r, i) => (r.kind === 'item' ? [{ key: r.entry.key, row: i }] : [])), [rows]);

  // The first entry is active for each new list; the active entry stays when it is still listed.
  // cmdk's own choice of the first entry is not kept: a source answering after the keystroke may
  // put a better match first, and Enter must run what is first then.
  const activeKey = items.some((i) => i.key === active) ? active : (items[0]?.key ?? '');

  // eslint-disable-next-line react-hooks/incompatible-library -- no React Compiler here: nothing memoised reads the virtualizer
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current,
    estimateSize: (i) => (rows[i].kind === 'heading' ? HEADING_HEIGHT : ITEM_HEIGHT),
    overscan: 6,
  });

  const moveTo = (index: number) => {
    const target = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!target) return;
    setActive(target.key);
    virtualizer.scrollToIndex(target.row, { align: 'auto' });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const at = items.findIndex((i) => i.key === activeKey);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, PageDown: at + PAGE, PageUp: at - PAGE, End: items.length - 1, Home: 0 };
    if (!(e.key in moves) || e.altKey || e.metaKey || e.ctrlKey) return;
    // Home and End move the caret when there is a query to edit.
    if ((e.key === 'Home' || e.key === 'End') && query) return;
    e.preventDefault();
    const next = e.key === 'ArrowDown' && at === items.length - 1 ? 0 : e.key === 'ArrowUp' && at === 0 ? items.length - 1 : moves[e.key];
    moveTo(next);
  };

  return (
    <Command
      shouldFilter={false}
      label={placeholder}
      className="palette-command"
      value={activeKey}
      onValueChange={(key) => setActive(key === items[0]?.key ? '' : key)}
      onKeyDown={onKeyDown}
    >
      <Command.Input
        value={query}
        onValueChange={(text) => {
          setQuery(text);
          setActive('');
        }}
        placeholder={placeholder}
        className="palette-input"
        autoFocus
      />
      <Command.List ref={listRef} className="palette-list">
        <Command.Empty className="palette-empty">{t('commands.palette.empty')}</Command.Empty>
        <div className="palette-rows" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index];
            const style = { transform: `translateY(${v.start}px)`, height: v.size };
            if (row.kind === 'heading') {
              return (
                <div key={`h:${row.group}`} className="palette-heading" style={style} aria-hidden="true">
                  {t(`commands.palette.group.${row.group}`)}
                </div>
              );
            }
            const entry = row.entry;
            return (
              <Command.Item key={entry.key} value={entry.key} onSelect={() => onRun(entry)} className="palette-item" style={style}>
                <span className="palette-label">{entry.label}</span>
                {entry.hint ? <span className="palette-hint">{entry.hint}</span> : null}
                {entry.shortcut ? <Shortcut keys={entry.shortcut} /> : null}
              </Command.Item>
            );
          })}
        </div>
      </Command.List>
    </Command>
  );
}
