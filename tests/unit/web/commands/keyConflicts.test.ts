// Every default shortcut of the registry: no two commands bound to the same keys where both can
// apply, none shadowing another's sequence ('g p' would swallow 'g p p'), and each typeable on
// French AZERTY and US QWERTY without AltGr.
import { describe, expect, it } from 'vitest';
import '../../../../src/app/commands';
import '../../../../src/grid/grid.commands';
import { parseShortcut, type Chord } from '../../../../src/commands/keys';
import { allCommands, type Command } from '../../../../src/commands/registry';
import type { ScreenId } from '../../../../src/commands/screens';

/** Characters both layouts type with at most Shift: letters, digits and these symbols. */
const sharedSymbols = new Set([...`&"'(-_)=$*,;:!<+%?./>`]);
const namedKeys = new Set([
  'escape',
  'delete',
  'backspace',
  'enter',
  ' ',
  'tab',
  'home',
  'end',
  'pageup',
  'pagedown',
  'arrowup',
  'arrowdown',
  'arrowleft',
  'arrowright',
]);

function typeable(chord: Chord): boolean {
  const k = chord.key;
  if (namedKeys.has(k) || /^f([1-9]|1[0-2])$/.test(k)) return true;
  return k.length === 1 && (/[a-z0-9]/.test(k) || sharedSymbols.has(k));
}

const chordId = (c: Chord) => `${c.mod ? 'mod+' : ''}${c.ctrl ? 'ctrl+' : ''}${c.alt ? 'alt+' : ''}${c.shift ? 'shift+' : ''}${c.key}`;

/** Pairs of commands whose shortcuts collide (one is the other or starts it) where both can apply. */
function conflicts(commands: readonly Command[]): string[] {
  const bound = commands.flatMap((c) => (c.keys ?? []).map((k) => ({ c, chords: parseShortcut(k).map(chordId), text: k })));
  const out: string[] = [];
  for (let i = 0; i < bound.length; i++) {
    for (let j = i + 1; j < bound.length; j++) {
      const [a, b] = [bound[i], bound[j]];
      if (a.c === b.c) continue;
      const overlap = a.c.scope === undefined || b.c.scope === undefined || a.c.scope === b.c.scope;
      const n = Math.min(a.chords.length, b.chords.length);
      const prefix = a.chords.slice(0, n).join(' ') === b.chords.slice(0, n).join(' ');
      if (overlap && prefix) out.push(`${a.c.id} (${a.text}) × ${b.c.id} (${b.text})`);
    }
  }
  return out;
}

const fake = (id: string, keys: string[], scope?: ScreenId): Command => ({ id, title: id, section: 'test', keys, scope, requires: 'staff', run: () => {} });

describe('default shortcuts', () => {
  it('bind no key twice where both commands can apply', () => {
    expect(conflicts(allCommands())).toEqual([]);
  });

  it('are told apart from a clash: same key, a shadowed sequence, a global key over a screen key', () => {
    expect(conflicts([fake('a', ['x'], 'leads'), fake('b', ['x'], 'leads')])).toHaveLength(1);
    expect(conflicts([fake('a', ['g p']), fake('b', ['g p p'])])).toHaveLength(1);
    expect(conflicts([fake('a', ['e']), fake('b', ['e'], 'users')])).toHaveLength(1);
    expect(conflicts([fake('a', ['e'], 'leads'), fake('b', ['e'], 'users')])).toEqual([]);
  });

  it('are typed on AZERTY and QWERTY without AltGr', () => {
    const bad = allCommands().flatMap((c) => (c.keys ?? []).filter((k) => !parseShortcut(k).every(typeable)).map((k) => `${c.id}: ${k}`));
    expect(bad).toEqual([]);
    expect(parseShortcut('mod+[').every(typeable)).toBe(false);
    expect(parseShortcut('#').every(typeable)).toBe(false);
    expect(parseShortcut('@').every(typeable)).toBe(false);
  });
});
