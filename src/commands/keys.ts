/**
 * Shortcuts as data. A shortcut is a sequence of chords separated by spaces ('g c'); a chord
 * is modifiers and a key joined by '+' ('mod+k', 'shift+delete', '?'). 'mod' is Cmd on Apple
 * systems and Ctrl elsewhere.
 *
 * Chords match the character typed (KeyboardEvent.key), never the physical key
 * (KeyboardEvent.code): 'a' fires on QWERTY's A and on AZERTY's A (code KeyQ) alike. Shift is
 * part of the character for symbols ('?' is Shift+, on AZERTY and Shift+/ on QWERTY), so it is
 * only checked for letters and named keys. AltGr (reported as Ctrl+Alt on Windows) is never
 * needed by a default shortcut.
 */
export interface Chord {
  key: string;
  mod: boolean;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

const aliases: Record<string, string> = {
  esc: 'escape',
  del: 'delete',
  space: ' ',
  up: 'arrowup',
  down: 'arrowdown',
  left: 'arrowleft',
  right: 'arrowright',
  return: 'enter',
};

export const isApple = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export function parseShortcut(shortcut: string): Chord[] {
  return shortcut
    .trim()
    .split(/\s+/)
    .map((chord) => {
      const parts = chord === '+' ? ['+'] : chord.toLowerCase().split('+');
      const key = parts.pop()!;
      return {
        key: aliases[key] ?? key,
        mod: parts.includes('mod'),
        ctrl: parts.includes('ctrl'),
        alt: parts.includes('alt'),
        shift: parts.includes('shift'),
      };
    });
}

/** The key of an event as chords write it: lower-case letters, lower-case named keys. */
/** The fields of a keydown that shortcuts look at. */
export type KeyStroke = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

export const eventKey = (event: KeyStroke) => event.key.toLowerCase();

const isLetter = (key: string) => key.length === 1 && key.toLowerCase() !== key.toUpperCase();
const isSymbol = (key: string) => key.length === 1 && !isLetter(key) && key !== ' ';

export function matchesChord(chord: Chord, event: KeyStroke): boolean {
  if (eventKey(event) !== chord.key) return false;
  const apple = isApple();
  const wantMeta = chord.mod && apple;
  const wantCtrl = chord.ctrl || (chord.mod && !apple);
  if (event.metaKey !== wantMeta || event.ctrlKey !== wantCtrl || event.altKey !== chord.alt) return false;
  return isSymbol(chord.key) || event.shiftKey === chord.shift;
}

/** True for a chord that types nothing on its own (has Ctrl, Cmd or Alt). */
export const isModified = (chord: Chord) => chord.mod || chord.ctrl || chord.alt;

const symbols: Record<string, string> = {
  backspace: '⌫',
  enter: '↵',
  arrowup: '↑',
  arrowdown: '↓',
  arrowleft: '←',
  arrowright: '→',
};
const named: Record<string, string> = {
  escape: 'escape',
  delete: 'delete',
  ' ': 'space',
  tab: 'tab',
  home: 'home',
  end: 'end',
  pageup: 'pageUp',
  pagedown: 'pageDown',
};

/** Display form of a shortcut, one array of key caps per chord: 'mod+k' → [['Ctrl', 'K']]. */
export function shortcutCaps(shortcut: string, t: (id: string) => string): string[][] {
  const apple = isApple();
  return parseShortcut(shortcut).map((c) => [
    ...(c.mod ? [apple ? '⌘' : 'Ctrl'] : []),
    ...(c.ctrl ? ['Ctrl'] : []),
    ...(c.alt ? [apple ? '⌥' : 'Alt'] : []),
    ...(c.shift ? [t('commands.key.shift')] : []),
    symbols[c.key] ?? (named[c.key] ? t(`commands.key.${named[c.key]}`) : c.key.toUpperCase()),
  ]);
}

/** The aria-keyshortcuts form of a shortcut ('mod+k' → 'Control+K'; sequences joined by spaces). */
export function ariaShortcut(shortcut: string): string {
  const apple = isApple();
  return parseShortcut(shortcut)
    .map((c) =>
      [
        ...(c.mod ? [apple ? 'Meta' : 'Control'] : []),
        ...(c.ctrl ? ['Control'] : []),
        ...(c.alt ? ['Alt'] : []),
        ...(c.shift ? ['Shift'] : []),
        c.key === ' ' ? 'Space' : c.key.length === 1 ? c.key.toUpperCase() : c.key[0].toUpperCase() + c.key.slice(1),
      ].join('+'),
    )
    .join(' ');
}
