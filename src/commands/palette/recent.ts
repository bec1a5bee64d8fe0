/**
 * The keys of the last entries run from the palette, kept across visits. The palette lists the
 * current entries of those keys as its last group, so their labels follow the language.
 */
import { readStored, writeStored } from '../../state/storage';
import type { PaletteEntry } from './entries';

const KEY = 'paletteRecent';
const MAX = 6;

function readKeys(): string[] {
  try {
    const keys = JSON.parse(readStored(KEY) ?? '[]') as unknown;
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

/** The entries of `all` run last, most recent first, as the 'recent' group. */
export function recentEntries(all: readonly PaletteEntry[]): PaletteEntry[] {
  const byKey = new Map(all.map((e) => [e.key, e]));
  return readKeys().flatMap((key) => {
    const entry = byKey.get(key);
    return entry ? [{ ...entry, key: `recent:${key}`, group: 'recent' }] : [];
  });
}

export function rememberRecent(entry: PaletteEntry) {
  const key = entry.key.replace(/^recent:/, '');
  writeStored(KEY, JSON.stringify([key, ...readKeys().filter((k) => k !== key)].slice(0, MAX)));
}
