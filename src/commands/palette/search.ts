/**
 * The palette's matcher: accent- and case-insensitive ("regles" finds "Règles"), every word of
 * the query must appear, and matches at the start of the text or of a word rank first. Texts
 * are normalised once when the entries are built; a keystroke only runs indexOf over them,
 * which keeps 10,000 entries well under a frame (tests/bench/palette.bench.ts).
 */
import { foldText } from '../../shared/foldText';

export interface Searchable {
  /** foldText(label + keywords), computed once. */
  haystack: string;
}

export const queryWords = (query: string) => foldText(query).split(/\s+/).filter(Boolean);

/** 0 for a match at the very start, 1 at the start of a word, 2 inside a word; -1 when absent. */
function rank(haystack: string, words: string[]): number {
  let worst = 0;
  for (const word of words) {
    const at = haystack.indexOf(word);
    if (at < 0) return -1;
    const r = at === 0 ? 0 : /[\s\-_/.,'(]/.test(haystack[at - 1]) ? 1 : 2;
    if (r > worst) worst = r;
  }
  return worst;
}

/** The entries matching every word, best ranks first, original order kept within a rank. */
export function filterEntries<T extends Searchable>(entries: readonly T[], words: string[]): T[] {
  if (words.length === 0) return entries.slice();
  const buckets: T[][] = [[], [], []];
  for (const entry of entries) {
    const r = rank(entry.haystack, words);
    if (r >= 0) buckets[r].push(entry);
  }
  return buckets[0].concat(buckets[1], buckets[2]);
}
