import { describe, expect, it } from 'vitest';
import { ariaShortcut, matchesChord, parseShortcut, shortcutCaps } from '../../../../src/commands/keys';
import { filterEntries, queryWords } from '../../../../src/commands/palette/search';
import { foldText } from '../../../../src/shared/foldText';

const t = (id: string) => ({ 'commands.key.shift': 'Maj', 'commands.key.delete': 'Suppr' })[id] ?? id;
const stroke = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('shortcuts as data', () => {
  it('parse sequences, modifiers and aliases', () => {
    expect(parseShortcut('g c').map((c) => c.key)).toEqual(['g', 'c']);
    expect(parseShortcut('shift+del')[0]).toMatchObject({ key: 'delete', shift: true, mod: false });
    expect(parseShortcut('mod+k')[0]).toMatchObject({ key: 'k', mod: true });
    expect(parseShortcut('space')[0].key).toBe(' ');
  });

  it('match on the character, with Ctrl for mod off Apple systems, and AltGr (Ctrl+Alt) never matching a plain key', () => {
    const [modK] = parseShortcut('mod+k');
    expect(matchesChord(modK, stroke('k', { ctrlKey: true }))).toBe(true);
    expect(matchesChord(modK, stroke('k'))).toBe(false);
    const [a] = parseShortcut('a');
    expect(matchesChord(a, stroke('a'))).toBe(true);
    expect(matchesChord(a, stroke('A', { shiftKey: true }))).toBe(false);
    expect(matchesChord(a, stroke('a', { ctrlKey: true, altKey: true }))).toBe(false);
    const [del] = parseShortcut('shift+delete');
    expect(matchesChord(del, stroke('Delete', { shiftKey: true }))).toBe(true);
    expect(matchesChord(del, stroke('Delete'))).toBe(false);
  });

  it('display as key caps and as aria-keyshortcuts', () => {
    expect(shortcutCaps('g c', t)).toEqual([['G'], ['C']]);
    expect(shortcutCaps('mod+k', t)).toEqual([['Ctrl', 'K']]);
    expect(shortcutCaps('shift+delete', t)).toEqual([['Maj', 'Suppr']]);
    expect(ariaShortcut('mod+k')).toBe('Control+K');
    expect(ariaShortcut('shift+delete')).toBe('Shift+Delete');
  });
});

describe('palette matching', () => {
  const entry = (label: string, keywords = '') => ({ label, haystack: foldText(`${label} ${keywords}`), labelLength: foldText(label).length });
  const entries = ['Règles', 'Gestion des comptes', 'Clients → règles', 'Déréglé'].map((label) => entry(label));

  it('ignores accents and case and wants every word', () => {
    expect(filterEntries(entries, queryWords('REGLES')).map((e) => e.label)).toEqual(['Règles', 'Clients → règles']);
    expect(filterEntries(entries, queryWords('gestion comptes')).map((e) => e.label)).toEqual(['Gestion des comptes']);
    expect(filterEntries(entries, queryWords('regle')).map((e) => e.label)).toEqual(['Règles', 'Clients → règles', 'Déréglé']);
  });

  it("ranks the label's matches above the keywords': exact, prefix, word starts, inside a word, then the same in the keywords", () => {
    const ranked = [
      entry('Chauffage Dupont', 'PAC toutes zones'),
      entry('Toutes zones PAC'),
      entry('PAC toutes zones nord'),
      entry('Secteurs', 'pac toutes zones'),
      entry('PAC toutes zones'),
      entry('Zones de PACtoutes'),
    ];
    expect(filterEntries(ranked, queryWords('pac toutes zones')).map((e) => e.label)).toEqual([
      'PAC toutes zones',
      'PAC toutes zones nord',
      'Toutes zones PAC',
      'Zones de PACtoutes',
      'Chauffage Dupont',
      'Secteurs',
    ]);
  });

  it('keeps everything, in order, for an empty query', () => {
    expect(filterEntries(entries, queryWords('  ')).map((e) => e.label)).toEqual(entries.map((e) => e.label));
  });
});
