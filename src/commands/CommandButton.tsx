import type { ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { ariaShortcut } from './keys';
import { useCommand } from './useCommand';
import type { CommandSource } from './registry';

interface Props {
  command: string;
  args?: unknown;
  source?: CommandSource;
  /** Defaults to the command's translated title; the command's key is shown after it either way. */
  children?: ReactNode;
  className?: string;
  /** Accessible name when the children are only an icon. */
  label?: string;
}

/** A button that runs a command: hidden without the role, disabled when `when` says no. */
export function CommandButton({ command, args, source = 'button', children, className, label }: Props) {
  const c = useCommand(command, source);
  if (!c.visible) return null;
  const hint = c.shortcutCaps.map((chord) => chord.join('+')).join(' ');
  return (
    <Button
      className={className ?? 'btn'}
      isDisabled={!c.enabled}
      onPress={() => void c.run(args)}
      aria-label={label}
      aria-keyshortcuts={c.shortcut ? ariaShortcut(c.shortcut) : undefined}
      data-command={command}
    >
      {children ?? c.title}
      {hint ? <kbd className="btn-kbd">{hint}</kbd> : null}
    </Button>
  );
}
