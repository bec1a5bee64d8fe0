import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Menu, MenuItem, Popover } from 'react-aria-components';
import { useLocation } from 'react-router';
import { useSnapshot } from 'valtio';
import { screenForPath } from '../../app/screens';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { ui } from '../../state/ui';
import { Icon } from './icons';
import { useScreenTitle } from './useScreenTitle';

const menuCommands = ['tags.refresh', 'tags.close', 'tags.closeOthers', 'tags.closeAll'] as const;

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
      <Popover triggerRef={anchor} isOpen={menu !== null} onOpenChange={(open) => !open && setMenu(null)} placement="bottom start" className="popover">
        <Menu
          className="menu-list"
          aria-label={t('shell.tags.menu')}
          autoFocus="first"
          onAction={(id) => {
            const path = menu ?? pathname;
            setMenu(null);
            void runCommand(String(id), { path }, 'tags');
          }}
        >
          {menuCommands.map((id) => (
            <MenuItem key={id} id={id} className="menu-item">
              {t(`commands.${id}`)}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </nav>
  );
}
