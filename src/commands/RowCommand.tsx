import type { ReactNode } from 'react';
import { ariaShortcut } from './keys';
import { useCommand } from './useCommand';

interface Props {
  command: string;
  /** The row the button acts on (its id), whatever row has the grid's focus. */
  args: unknown;
  /** Defaults to the command's title. */
  children?: ReactNode;
  tone?: 'primary' | 'danger';
}

/**
 * A command's button inside a grid row (Règles of a customer, Rapports of a rule): for the
 * mouse. It stays out of the tab order, so the grid remains one tab stop; the keyboard runs the
 * same command on the focused row with its key. Hidden without the role, disabled where `when`
 * says no.
 */
export function RowCommand({ command, args, children, tone }: Props) {
  const c = useCommand(command, 'button');
  if (!c.visible) return null;
  const hint = c.shortcutCaps.map((chord) => chord.join('+')).join(' ');
  return (
    <button
      type="button"
      tabIndex={-1}
      className={`btn btn-row${tone ? ` btn-${tone}` : ''}`}
      disabled={!c.enabled}
      title={hint ? `${c.title} (${hint})` : c.title}
      aria-keyshortcuts={c.shortcut ? ariaShortcut(c.shortcut) : undefined}
      data-command={command}
      onClick={() => void c.run(args)}
    >
      {children ?? c.title}
    </button>
  );
}
