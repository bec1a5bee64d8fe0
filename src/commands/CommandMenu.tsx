import { Fragment, useSyncExternalStore, type FocusEvent, type ReactNode } from 'react';
import { Button, Menu, MenuItem, Separator } from 'react-aria-components';
import { useT } from '../i18n/provider';
import { Hint } from '../ui/Hint';
import { Icon } from '../ui/icons';
import { useCommandContext } from './context';
import { ariaShortcut, shortcutCaps } from './keys';
import { Shortcut } from './Shortcut';
import { commandsOf, commandsVersion, isAvailable, isPermitted, runCommand, subscribeCommands, type CommandSource, type MenuId } from './registry';

interface Props {
  /** The menu id the commands name in their `menus`. */
  menu: MenuId;
  /**
   * 'toolbar': buttons with their titles and keys; 'icons': icon buttons (the navbar); 'items': a
   * react-aria Menu (context menus); 'row': the places marked `inline`, as compact buttons inside
   * a grid row, out of the tab order (the grid stays one tab stop; its keys run the same commands).
   */
  variant: 'toolbar' | 'icons' | 'items' | 'row';
  label: string;
  /** Arguments of every command of the menu (the tag a context menu was opened on). */
  args?: unknown;
  source?: CommandSource;
  className?: string;
  /** After an item of a context menu ran (to close its popover). */
  onAction?: () => void;
}

/**
 * One component for every menu: the commands that declare a place in `menu`, in order, a
 * separator between groups. Hidden without the role or where the place's `when` says no;
 * disabled where the command's own `when` says no.
 */
export function CommandMenu({ menu, variant, label, args, source = variant === 'items' ? 'menu' : 'button', className, onAction }: Props) {
  useSyncExternalStore(subscribeCommands, commandsVersion);
  const ctx = useCommandContext();
  const t = useT();
  const shown = commandsOf(menu).filter(
    ({ command, place }) => (variant !== 'row' || place.inline) && isPermitted(command, ctx.user) && (!place.when || place.when(ctx, args)),
  );
  const items = shown.map(({ command, place }, i) => ({
    command,
    place,
    enabled: isAvailable(command, ctx, args),
    title: t(command.title),
    shortcut: command.keys?.[0],
    groupStart: i > 0 && shown[i - 1].place.group !== place.group,
  }));
  const run = (id: string) => void runCommand(id, args, source);

  if (variant === 'items') {
    return (
      <Menu className={className ?? 'menu-list'} aria-label={label} autoFocus="first" onAction={(id) => (onAction?.(), run(String(id)))}>
        {items.map((item) => (
          <Fragment key={item.command.id}>
            {item.groupStart ? <Separator className="menu-separator" /> : null}
            <MenuItem id={item.command.id} className="menu-item" isDisabled={!item.enabled} textValue={item.title}>
              {item.title}
            </MenuItem>
          </Fragment>
        ))}
      </Menu>
    );
  }

  const keyHintOf = (item: (typeof items)[number]) =>
    item.shortcut
      ? shortcutCaps(item.shortcut, t)
          .map((chord) => chord.join('+'))
          .join(' ')
      : '';

  if (variant === 'row') {
    return (
      <>
        {items.map((item) => (
          <button
            type="button"
            key={item.command.id}
            tabIndex={-1}
            className={`btn btn-row${item.place.tone === 'danger' ? ' btn-danger' : ''}`}
            disabled={!item.enabled}
            title={keyHintOf(item) ? `${item.title} (${keyHintOf(item)})` : item.title}
            aria-keyshortcuts={item.shortcut ? ariaShortcut(item.shortcut) : undefined}
            data-command={item.command.id}
            onClick={() => run(item.command.id)}
          >
            {item.title}
          </button>
        ))}
      </>
    );
  }

  const buttons: ReactNode[] = items.map((item) => {
    const keyHint = keyHintOf(item);
    const common = {
      isDisabled: !item.enabled,
      onPress: () => run(item.command.id),
      'aria-keyshortcuts': item.shortcut ? ariaShortcut(item.shortcut) : undefined,
      'data-command': item.command.id,
    };
    if (variant === 'icons') {
      const badge = item.command.badge?.();
      const text = item.place.label ? t(item.place.label) : null;
      const button = (
        <Button
          {...common}
          className={item.place.tone === 'danger' ? 'btn btn-danger icon-btn-text' : text ? 'search-btn' : 'icon-btn'}
          aria-label={text ? undefined : item.title}
          aria-expanded={item.place.expanded?.()}
        >
          {item.command.icon ? <Icon name={item.command.icon} /> : null}
          {text ? <span className="icon-btn-label">{text}</span> : null}
          {text && item.shortcut ? <Shortcut keys={item.shortcut} /> : null}
          {badge ? <span className="badge">{badge}</span> : null}
        </Button>
      );
      return text ? (
        <Fragment key={item.command.id}>{button}</Fragment>
      ) : (
        <Hint key={item.command.id} label={keyHint ? `${item.title} (${keyHint})` : item.title}>
          {button}
        </Hint>
      );
    }
    return (
      <Button
        {...common}
        key={item.command.id}
        className={`btn${item.place.tone ? ` btn-${item.place.tone}` : ''}${item.groupStart ? ' btn-group-start' : ''}`}
      >
        {item.title}
        {keyHint ? <kbd className="btn-kbd">{keyHint}</kbd> : null}
      </Button>
    );
  });
  // A bar that scrolls sideways (the lead view's actions on a phone) shows the focused button
  // whole: the browser scrolls a focused element into view only when none of it is visible.
  const reveal = (e: FocusEvent<HTMLDivElement>) => {
    const bar = e.currentTarget;
    if (bar.scrollWidth <= bar.clientWidth) return;
    const shown = bar.getBoundingClientRect();
    const item = (e.target as HTMLElement).getBoundingClientRect();
    if (item.left < shown.left) bar.scrollLeft -= shown.left - item.left;
    else if (item.right > shown.right) bar.scrollLeft += item.right - shown.right;
  };
  return (
    <div role="group" aria-label={label} className={className} onFocus={reveal}>
      {buttons}
    </div>
  );
}
