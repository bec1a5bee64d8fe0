/** The last entries run from the palette, kept across visits, listed as the palette's last group. */
import { readStored, writeStored } from '../../state/storage';
import { makeEntry, type EntrySeed, type PaletteEntry } from './entries';

const KEY = 'paletteRecent';
const MAX = 6;

export function readRecent(): PaletteEntry[] {
  try {
    const seeds = JSON.parse(readStored(KEY) ?? '[]') as EntrySeed[];
    return Array.isArray(seeds)
      ? seeds
          .filter((s) => typeof s?.command === 'string' && typeof s?.label === 'string')
          .map((s) => makeEntry({ ...s, key: `recent:${s.key}`, group: 'recent' }))
      : [];
  } catch {
    return [];
  }
}

export function rememberRecent(entry: PaletteEntry) {
  const key = entry.key.replace(/^recent:/, '');
  const seed: EntrySeed = { key, group: 'recent', label: entry.label, hint: entry.hint, command: entry.command, args: entry.args, shortcut: entry.shortcut };
  const others = readRecent()
    .map(({ haystack: _h, ...s }) => ({ ...s, key: s.key.replace(/^recent:/, '') }))
    .filter((s) => s.key !== key);
  writeStored(KEY, JSON.stringify([seed, ...others].slice(0, MAX)));
}
