import { describe, expect, it } from 'vitest';
import { nestsTooDeep } from '../../../../server/plugins/json-body';

/** The rule read a character at a time: what the string-skipping scan must always agree with. */
function oneCharAtATime(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      if (++depth > 64) return true;
    } else if (c === ']' || c === '}') depth--;
  }
  return false;
}

describe('nestsTooDeep', () => {
  it('counts brackets outside strings only, escaped quotes and backslashes included', () => {
    expect(nestsTooDeep('['.repeat(65) + ']'.repeat(65))).toBe(true);
    expect(nestsTooDeep('['.repeat(64) + ']'.repeat(64))).toBe(false);
    expect(nestsTooDeep(JSON.stringify({ a: '['.repeat(100) }))).toBe(false);
    expect(nestsTooDeep(JSON.stringify(['say \\"[[[', '\\', '"'.repeat(3) + '{'.repeat(80)]))).toBe(false);
    expect(nestsTooDeep(`["\\\\"${'['.repeat(65)}`)).toBe(true);
    expect(nestsTooDeep(`["\\"${'['.repeat(65)}`)).toBe(false);
    expect(nestsTooDeep('"unterminated [[[')).toBe(false);
  });

  it('agrees with a scan one character at a time on random texts of quotes, backslashes and brackets', () => {
    const alphabet = ['"', '\\', '[', ']', '{', '}', 'a', ','];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 3000; n++) {
      const length = next() % 400;
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
      // Runs of opening brackets, so that some texts pass the limit.
      if (n % 3 === 0) text = '['.repeat(next() % 80) + text;
      expect(nestsTooDeep(text), text).toBe(oneCharAtATime(text));
    }
  });
});
