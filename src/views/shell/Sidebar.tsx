import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useLocation } from 'react-router';
import { useSnapshot } from 'valtio';
import { useFacebookLandings, useLandings } from '../../api/landings/hooks';
import { useViews } from '../../api/views/hooks';
import { runCommand } from '../../commands/registry';
import { useIntl, useT } from '../../i18n/provider';
import { closeSidebar, ui } from '../../state/ui';
import { useCommandContext } from '../../commands/context';
import { Icon } from '../../ui/icons';
import { buildMenu, type MenuEntry, type MenuGroup } from './menu';

/** docs/product.md §9: a collapsed group's popup shows after 200 ms. */
const SHOW_TIMEOUT_MS = 200;

/** A real link (middle-click and "open in a new tab" work) whose plain click runs the entry's command. */
function EntryLink({ entry, active }: { entry: MenuEntry; active: boolean }) {
  const t = useT();
  const intl = useIntl();
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (ui.device === 'mobile') closeSidebar(false);
    void runCommand(entry.command, entry.args, 'sidebar');
  };
  const label = entry.literal ? entry.title : t(entry.title);
  // Long landing names wrap onto a second line; the title gives the rest of a longer one.
  return (
    <a
      href={entry.href}
      onClick={onClick}
      className={active ? 'menu-link active' : 'menu-link'}
      aria-current={active ? 'page' : undefined}
      data-route-path={entry.routePath}
      title={label}
    >
      <span className="menu-link-text">{label}</span>
      {entry.view && entry.view.count !== null ? (
        <span className="menu-count" aria-label={t('views.count', { count: entry.view.count })}>
          {intl.formatNumber(entry.view.count)}
        </span>
      ) : null}
    </a>
  );
}

/** The group's own entries (landings, screens), not the saved views listed among them. */
const landingCount = (group: MenuGroup) => group.entries.filter((e) => !e.view).length;

function Group({ group, collapsed, pathname, search }: { group: MenuGroup; collapsed: boolean; pathname: string; search: string }) {
  const t = useT();
  const containsActive = group.entries.some((e) => e.href === pathname);
  const [open, setOpen] = useState(containsActive || group.id === 'landings');
  const [popup, setPopup] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Navigating into a group opens it (adjusting state while rendering, as React advises).
  const [wasActive, setWasActive] = useState(containsActive);
  if (containsActive !== wasActive) {
    setWasActive(containsActive);
    if (containsActive) setOpen(true);
  }

  const later = (show: boolean) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setPopup(show), show ? SHOW_TIMEOUT_MS : SHOW_TIMEOUT_MS / 2);
  };
  const title = t(group.title);
  const listId = `menu-${group.id}`;
  const expanded = collapsed ? popup : open;

  return (
    <li
      className={`menu-group${containsActive ? ' has-active' : ''}${collapsed && popup ? ' popup-open' : ''}`}
      onMouseEnter={collapsed ? () => later(true) : undefined}
      onMouseLeave={collapsed ? () => later(false) : undefined}
      onBlur={collapsed ? (e) => !e.currentTarget.contains(e.relatedTarget) && later(false) : undefined}
    >
      <button
        type="button"
        className="menu-group-title"
        aria-expanded={expanded}
        aria-controls={listId}
        title={collapsed ? title : undefined}
        onClick={() => (collapsed ? setPopup((p) => !p) : setOpen((o) => !o))}
      >
        <Icon name={group.icon} />
        <span className="menu-group-text">{title}</span>
        {!collapsed && landingCount(group) > 0 ? <span className="menu-count">{landingCount(group)}</span> : null}
        {!collapsed ? <Icon name="chevron" className={open ? 'chevron open' : 'chevron'} /> : null}
      </button>
      {expanded ? (
        <ul id={listId} className={collapsed ? 'menu-popup' : 'menu-entries'} aria-label={title}>
          {collapsed ? <li className="menu-popup-title">{title}</li> : null}
          {group.entries.length === 0 ? <li className="menu-empty">{t('shell.menu.none')}</li> : null}
          {group.entries.map((entry) => (
            <li key={entry.routePath + entry.href} className={entry.view ? 'menu-view' : undefined}>
              <EntryLink entry={entry} active={entry.href === (entry.view ? pathname + search : pathname)} />
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function Sidebar() {
  const t = useT();
  const { sidebar, device } = useSnapshot(ui);
  const { pathname, search } = useLocation();
  const ctx = useCommandContext();
  const landings = useLandings();
  const facebook = useFacebookLandings();
  const views = useViews();
  const menu = buildMenu(ctx, landings.data ?? [], facebook.data ?? [], views.data ?? []);
  const mobile = device === 'mobile';
  const collapsed = !sidebar.opened && !mobile;
  const hidden = !sidebar.opened && mobile;
  // On a phone the opened drawer covers the button that opened it: it takes the focus, and
  // Escape closes it and gives the focus back to where it was.
  const navRef = useRef<HTMLElement>(null);
  const drawer = mobile && sidebar.opened;
  useEffect(() => {
    if (!drawer) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    navRef.current?.querySelector<HTMLElement>('a[href], button')?.focus({ preventScroll: true });
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      e.stopPropagation();
      closeSidebar(false);
      opener?.focus({ preventScroll: true });
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [drawer]);

  return (
    <nav
      ref={navRef}
      className={`sidebar${collapsed ? ' collapsed' : ''}${hidden ? ' hidden' : ''}${sidebar.withoutAnimation ? ' no-animation' : ''}`}
      aria-label={t('shell.menu.label')}
      inert={hidden}
    >
      <a
        href="/"
        className="sidebar-brand"
        onClick={(e) => {
          e.preventDefault();
          void runCommand('nav.home', undefined, 'sidebar');
        }}
      >
        <span className="brand-mark" aria-hidden="true">
          LC
        </span>
        {/* Collapsed, the brand shows its mark only; its text still names the link. */}
        <span className={collapsed ? 'visually-hidden' : undefined}>{t('shell.brand')}</span>
      </a>
      <ul className="menu">
        {menu.map((group) => (
          <Group key={group.id} group={group} collapsed={collapsed} pathname={pathname} search={search} />
        ))}
      </ul>
      {landings.isError || facebook.isError ? <p className="menu-error">{t('shell.menu.loadFailed')}</p> : null}
    </nav>
  );
}
