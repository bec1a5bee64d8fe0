import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Popover } from 'react-aria-components';
import { useLocation } from 'react-router';
import { useSnapshot } from 'valtio';
import { CommandMenu } from '../../commands/CommandMenu';
import { mayOpenPath, screenForPath } from '../../commands/screens';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';
import { ui } from '../../state/ui';
import { userState } from '../../state/user';
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
        title={title || path}
      >
        {title || path}
      </a>
      <button
        type="button"
        className="tag-close"
        aria-label={t('shell.tags.closeTag', { title: title || path })}
        onClick={() => void runCommand('tags.close', { path }, 'tags')}
      >
        <Icon name="close" className="icon icon-small" />
      </button>
    </li>
  );
}

/**
 * Whether tags are hidden on either side of the bar, and the active tag kept in view: on each
 * navigation, and while the tags' titles arrive (a tag widens when its landing's name loads).
 */
function useOverflow(pathname: string, count: number) {
  const list = useRef<HTMLUListElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  const measure = useCallback(() => {
    const el = list.current;
    if (!el) return;
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
  }, []);
  useLayoutEffect(() => {
    const el = list.current;
    el?.addEventListener('scroll', measure, { passive: true });
    return () => el?.removeEventListener('scroll', measure);
  }, [measure]);
  useEffect(() => {
    const el = list.current;
    if (!el) return;
    const follow = () => {
      el.querySelector('.tag.active')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
      measure();
    };
    // The observer's first call comes once the page is laid out: called here, the scroll made the
    // browser lay out the whole page in the middle of the first render's effects.
    if (typeof ResizeObserver === 'undefined') return follow();
    const observer = new ResizeObserver(follow);
    observer.observe(el);
    for (const tag of el.children) observer.observe(tag);
    return () => observer.disconnect();
  }, [pathname, count, measure]);
  const scrollBy = (direction: 1 | -1) => list.current?.scrollBy({ left: direction * list.current.clientWidth * 0.8 });
  return { list, more, scrollBy };
}

/** The visited-views bar: one tag per screen opened, a context menu (right click, Shift+F10 or the menu key). */
export function TagsView() {
  const t = useT();
  const { userData } = useSnapshot(userState);
  // A tag kept from an admin's session is not a normal user's (nor an admin's before the role is known).
  const visitedViews = useSnapshot(ui).visitedViews.filter((v) => mayOpenPath(v.path, userData));
  const { pathname } = useLocation();
  const [menu, setMenu] = useState<string | null>(null);
  const anchor = useRef<HTMLElement | null>(null);
  const onMenu = (path: string, at: HTMLElement) => {
    anchor.current = at;
    setMenu(path);
  };
  const { list, more, scrollBy } = useOverflow(pathname, visitedViews.length);
  return (
    <nav className={`tags${more.left ? ' more-left' : ''}${more.right ? ' more-right' : ''}`} aria-label={t('shell.tags')}>
      {/* Mouse affordances: the keyboard reaches every tag with Tab, which scrolls it into view. */}
      <button type="button" className="tags-scroll" tabIndex={-1} aria-label={t('shell.tags.scrollLeft')} hidden={!more.left} onClick={() => scrollBy(-1)}>
        <Icon name="chevron" className="icon icon-small icon-left" />
      </button>
      <ul ref={list}>
        {visitedViews.map((v) => (
          <Tag key={v.path} path={v.path} active={v.path === pathname} onMenu={onMenu} />
        ))}
      </ul>
      <button type="button" className="tags-scroll" tabIndex={-1} aria-label={t('shell.tags.scrollRight')} hidden={!more.right} onClick={() => scrollBy(1)}>
        <Icon name="chevron" className="icon icon-small" />
      </button>
      <Popover
        triggerRef={anchor}
        isOpen={menu !== null}
        onOpenChange={(open) => !open && setMenu(null)}
        placement="bottom start"
        className="popover"
        aria-label={t('shell.tags.menu')}
      >
        <CommandMenu
          menu="tags.context"
          variant="items"
          label={t('shell.tags.menu')}
          args={{ path: menu ?? pathname }}
          source="tags"
          onAction={() => setMenu(null)}
        />
      </Popover>
    </nav>
  );
}
