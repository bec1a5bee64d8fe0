import { Button } from 'react-aria-components';
import { useMatches, useParams } from 'react-router';
import { useSnapshot } from 'valtio';
import type { ScreenHandle } from '../../app/screens';
import { ariaShortcut } from '../../commands/keys';
import { useCommand } from '../../commands/useCommand';
import { Shortcut } from '../../commands/Shortcut';
import { useT } from '../../i18n/provider';
import { ui } from '../../state/ui';
import { Hint } from './Hint';
import { Icon, type IconName } from './icons';
import { LanguageMenu, SizeMenu, ThemePicker } from './settings';
import { useScreenTitle } from './useScreenTitle';

/** An icon button of the navbar: runs its command, named by the command's title. */
function NavButton({ command, icon, badge, className }: { command: string; icon: IconName; badge?: number; className?: string }) {
  const c = useCommand(command, 'navbar');
  if (!c.visible) return null;
  return (
    <Hint label={c.title}>
      <Button className={className ?? 'icon-btn'} aria-label={c.title} isDisabled={!c.enabled} onPress={() => void c.run()} data-command={command}>
        <Icon name={icon} />
        {badge ? <span className="badge">{badge}</span> : null}
      </Button>
    </Hint>
  );
}

function Breadcrumb() {
  const t = useT();
  const matches = useMatches();
  const screen = (matches.at(-1)?.handle as ScreenHandle | undefined)?.screen;
  const params = useParams();
  const title = useScreenTitle(screen, params);
  return (
    <nav className="breadcrumb" aria-label={t('shell.breadcrumb')}>
      <ol>
        <li>{t('shell.screen.home')}</li>
        {screen?.group ? <li>{t(screen.group)}</li> : null}
        {screen && screen.view !== 'home' ? <li aria-current="page">{title}</li> : null}
      </ol>
    </nav>
  );
}

export function Navbar() {
  const t = useT();
  const { sidebar, device, errorLogs } = useSnapshot(ui);
  const palette = useCommand('shell.palette', 'navbar');
  const logout = useCommand('shell.logout', 'navbar');
  const toggle = useCommand('shell.toggleSidebar', 'navbar');
  return (
    <div className="navbar">
      <Hint label={toggle.title}>
        <Button className="icon-btn" aria-label={toggle.title} aria-expanded={sidebar.opened} onPress={() => void toggle.run()} data-command="shell.toggleSidebar">
          <Icon name="menu" />
        </Button>
      </Hint>
      <Breadcrumb />
      <div className="navbar-right">
        <Button className="search-btn" onPress={() => void palette.run()} data-command="shell.palette" aria-keyshortcuts={ariaShortcut('mod+k')}>
          <Icon name="search" />
          <span className={device === 'mobile' ? 'visually-hidden' : undefined}>{t('shell.search')}</span>
          <Shortcut keys="mod+k" />
        </Button>
        <NavButton command="shell.help" icon="help" />
        {device === 'desktop' ? <NavButton command="shell.errorLog" icon="bug" badge={errorLogs.length} /> : null}
        <NavButton command="shell.fullscreen" icon="fullscreen" />
        <LanguageMenu />
        <SizeMenu />
        <ThemePicker />
        <Button className="btn btn-danger logout-btn" onPress={() => void logout.run()} data-command="shell.logout" aria-label={logout.title}>
          <Icon name="logout" />
          <span>{logout.title}</span>
        </Button>
      </div>
    </div>
  );
}
