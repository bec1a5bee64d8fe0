/**
 * The palette's matcher: accent- and case-insensitive ("regles" finds "Règles") and every word of
 * the query must appear. A match on an entry's own label ranks above a match through its hint or
 * hidden keywords (a customer lists its rules' names as keywords: typing a rule's name must put
 * the rule first), and within each, matches at the start of the label or of a word rank first.
 * Texts are normalised once when the entries are built; a keystroke only runs indexOf over them,
 * which keeps 10,000 entries well under a frame (tests/bench/palette.bench.ts).
 */
import { foldText } from '../../shared/foldText';

export interface Searchable {
  /** foldText(label + ' ' + hint + ' ' + keywords), computed once: the label comes first. */
  haystack: string;
  /** How many characters of the haystack are the label's. */
  labelLength: number;
}

export const queryWords = (query: string) => foldText(query).split(/\s+/).filter(Boolean);

/**
 * The ranks, best first: the label is the query, starts with it, has every word at a word start,
 * has every word; then the same two for the whole text (a word found first in the label is in it:
 * words hold no space, so none spans the label and what follows).
 */
export const RANKS = 6;

function rank(entry: Searchable, words: string[], phrase: string): number {
  const { haystack, labelLength } = entry;
  if (phrase.length <= labelLength && haystack.startsWith(phrase)) return phrase.length === labelLength ? 0 : 1;
  let inLabel = true;
  let inside = 0;
  for (const word of words) {
    const at = haystack.indexOf(word);
    if (at < 0) return -1;
    if (at + word.length > labelLength) inLabel = false;
    if (at > 0 && !/[\s\-_/.,'(]/.test(haystack[at - 1])) inside = 1;
  }
  return (inLabel ? 2 : 4) + inside;
}

/** The entries matching every word, one list per rank (RANKS lists, best first), original order kept within a rank. */
export function rankEntries<T extends Searchable>(entries: readonly T[], words: string[]): T[][] {
  if (words.length === 0) return [entries.slice()];
  const phrase = words.join(' ');
  const buckets: T[][] = Array.from({ length: RANKS }, () => []);
  for (const entry of entries) {
    const r = rank(entry, words, phrase);
    if (r >= 0) buckets[r].push(entry);
  }
  return buckets;
}

/** The entries matching every word, best ranks first, original order kept within a rank. */
export const filterEntries = <T extends Searchable>(entries: readonly T[], words: string[]): T[] => rankEntries(entries, words).flat();
