import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Popover } from 'react-aria-components';
import { useLocation } from 'react-router';
import { useSnapshot } from 'valtio';
import { CommandMenu } from '../../commands/CommandMenu';
import { screenForPath } from '../../commands/screens';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { ui } from '../../state/ui';
import { Icon } from '../../ui/icons';
import { useScreenTitle } from './useScreenTitle';

/** A tag keeps its path, so its screen (and the screen's title hook) never changes: see useScreenTitle. */
function Tag({ path, active, onMenu }: { path: string; active: boolean; onMenu: (path: string, at: HTMLElement) => void }) {
  const t = useT();
  const found = screenForPath(path);
  const title = useScreenTitle(found?.screen, found?.params ?? {});
  const open = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void runCommand('tags.open', { path }, 'tags');
  };
  const keyMenu = (event: KeyboardEvent<HTMLAnchorElement>) => {
    if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
      event.preventDefault();
      onMenu(path, event.currentTarget);
    }
  };
  return (
    <li className={active ? 'tag active' : 'tag'}>
      <a
        href={path}
        onClick={open}
        onKeyDown={keyMenu}
        onContextMenu={(e) => {
          e.preventDefault();
          onMenu(path, e.currentTarget);
        }}
        aria-current={active ? 'page' : undefined}
      >
        {title || path}
      </a>
      <button type="button" className="tag-close" aria-label={t('shell.tags.closeTag', { title: title || path })} onClick={() => void runCommand('tags.close', { path }, 'tags')}>
        <Icon name="close" className="icon icon-small" />
      </button>
    </li>
  );
}

/** The visited-views bar: one tag per screen opened, a context menu (right click, Shift+F10 or the menu key). */
export function TagsView() {
  const t = useT();
  const { visitedViews } = useSnapshot(ui);
  const { pathname } = useLocation();
  const [menu, setMenu] = useState<string | null>(null);
  const anchor = useRef<HTMLElement | null>(null);
  const onMenu = (path: string, at: HTMLElement) => {
    anchor.current = at;
    setMenu(path);
  };
  return (
    <nav className="tags" aria-label={t('shell.tags')}>
      <ul>
        {visitedViews.map((v) => (
          <Tag key={v.path} path={v.path} active={v.path === pathname} onMenu={onMenu} />
        ))}
      </ul>
      <Popover triggerRef={anchor} isOpen={menu !== null} onOpenChange={(open) => !open && setMenu(null)} placement="bottom start" className="popover" aria-label={t('shell.tags.menu')}>
        <CommandMenu menu="tags.context" variant="items" label={t('shell.tags.menu')} args={{ path: menu ?? pathname }} source="tags" onAction={() => setMenu(null)} />
      </Popover>
    </nav>
  );
}
