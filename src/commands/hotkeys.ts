/**
 * The one keydown listener of the application. It turns keystrokes into `runCommand(id,
 * undefined, 'hotkey')` calls, following three rules:
 * - sequences: 'g c' waits up to 1.5 s for the second chord after the first;
 * - fields: while focus is in an input, textarea, select or contenteditable element, only
 *   shortcuts starting with Ctrl/Cmd/Alt fire, so typing a letter never runs a command;
 * - scopes: while a dialog (the palette, the help, a confirmation, any react-aria modal) is
 *   open, no shortcut fires: the dialog owns the keyboard and swallows the screen's keys.
 *
 * A component that handles a key itself calls event.preventDefault() and the listener leaves it.
 * Own listener rather than react-hotkeys-hook: commands come and go at run time, and the
 * sequence, field and scope rules must be the same for all of them in one place.
 */
import { ui } from '../state/ui';
import { getCommandContext } from './context';
import { isModified, matchesChord, parseShortcut, type Chord, type KeyStroke } from './keys';
import { allCommands, isAvailable, runCommand, type Command } from './registry';

const SEQUENCE_TIMEOUT_MS = 1500;
const modifierKeys = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock', 'OS', 'Dead']);

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  }
  return false;
}

/**
 * True while any dialog is open: hotkeys are then the dialog's business. Non-modal dialogs do
 * not count. The shell's own dialogs count from the moment their flag is set,
 * before React has drawn them: 'archiver' typed fast after mod+k must not archive.
 */
export function modalOpen(doc: Document = document): boolean {
  if (ui.palette.open || ui.helpOpen || ui.errorLogOpen || ui.twoFactorOpen) return true;
  return doc.querySelector('[role="dialog"]:not([aria-modal="false"]), [role="alertdialog"]:not([aria-modal="false"]), dialog[open]') !== null;
}

const parsed = new WeakMap<Command, Chord[][]>();
function shortcutsOf(command: Command): Chord[][] {
  let chords = parsed.get(command);
  if (!chords) {
    chords = (command.keys ?? []).map(parseShortcut);
    parsed.set(command, chords);
  }
  return chords;
}

let pendingNow: readonly KeyStroke[] = [];
const pendingListeners = new Set<() => void>();

function setPending(strokes: KeyStroke[]) {
  if (strokes.length === 0 && pendingNow.length === 0) return;
  pendingNow = strokes;
  for (const l of pendingListeners) l();
}

/** The first chords of a sequence typed so far ('g' before 'g c'), for the sequence hint. */
export const pendingStrokes = () => pendingNow;
export function subscribePending(listener: () => void) {
  pendingListeners.add(listener);
  return () => pendingListeners.delete(listener);
}

/** The commands a sequence begun with `strokes` can still reach, with the chords left to type. */
export function continuations(strokes: readonly KeyStroke[]) {
  const ctx = getCommandContext();
  const out: { command: Command; rests: string[] }[] = [];
  for (const command of allCommands()) {
    if (!isAvailable(command, ctx)) continue;
    const rests = (command.keys ?? [])
      .filter((shortcut) => {
        const chords = parseShortcut(shortcut);
        return chords.length > strokes.length && strokes.every((s, i) => matchesChord(chords[i], s));
      })
      .map((shortcut) => shortcut.trim().split(/\s+/).slice(strokes.length).join(' '));
    if (rests.length) out.push({ command, rests });
  }
  return out;
}

/** Commands whose shortcut starts with `strokes`: exact ones complete it, the others wait for more. */
export function matchStrokes(strokes: KeyStroke[], typing: boolean) {
  const ctx = getCommandContext();
  const exact: Command[] = [];
  let prefix = false;
  for (const command of allCommands()) {
    for (const chords of shortcutsOf(command)) {
      if (chords.length < strokes.length) continue;
      if (typing && !isModified(chords[0])) continue;
      if (!strokes.every((s, i) => matchesChord(chords[i], s))) continue;
      if (!isAvailable(command, ctx)) continue;
      if (chords.length === strokes.length) exact.push(command);
      else prefix = true;
    }
  }
  return { exact, prefix };
}

export function installHotkeys(target: Window = window): () => void {
  let pending: KeyStroke[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reset = () => {
    pending = [];
    clearTimeout(timer);
    setPending([]);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing || modifierKeys.has(event.key)) return;
    if (modalOpen(target.document)) return reset();
    const typing = isTypingTarget(event.target);
    const stroke: KeyStroke = {
      key: event.key,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      altKey: event.altKey,
      shiftKey: event.shiftKey,
    };
    let strokes = [...pending, stroke];
    let found = matchStrokes(strokes, typing);
    if (pending.length && !found.exact.length && !found.prefix) {
      strokes = [stroke];
      found = matchStrokes(strokes, typing);
    }
    if (found.exact.length) {
      event.preventDefault();
      reset();
      void runCommand(found.exact[0].id, undefined, 'hotkey');
    } else if (found.prefix) {
      event.preventDefault();
      clearTimeout(timer);
      pending = strokes;
      setPending(strokes);
      timer = setTimeout(reset, SEQUENCE_TIMEOUT_MS);
    } else {
      reset();
    }
  };

  target.addEventListener('keydown', onKeyDown);
  return () => {
    reset();
    target.removeEventListener('keydown', onKeyDown);
  };
}
