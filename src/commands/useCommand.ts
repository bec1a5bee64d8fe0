import { useSyncExternalStore } from 'react';
import { useT } from '../i18n/provider';
import { useCommandContext } from './context';
import { shortcutCaps } from './keys';
import { commandsVersion, getCommand, isAvailable, isPermitted, runCommand, subscribeCommands, type CommandSource } from './registry';

/**
 * What a button or menu item needs to show a command: whether to show it (role), whether it is
 * enabled (`when`), its translated title and first shortcut, and `run`, which goes through
 * runCommand like every other surface.
 */
export function useCommand(id: string, source: CommandSource = 'button') {
  useSyncExternalStore(subscribeCommands, commandsVersion);
  const ctx = useCommandContext();
  const t = useT();
  const command = getCommand(id);
  if (!command) throw new Error(`Unknown command "${id}"`);
  const shortcut = command.keys?.[0];
  return {
    command,
    visible: isPermitted(command, ctx.user),
    enabled: isAvailable(command, ctx),
    title: t(command.title),
    shortcut,
    shortcutCaps: shortcut ? shortcutCaps(shortcut, t) : [],
    run: (args?: unknown) => runCommand(id, args, source),
  };
}
