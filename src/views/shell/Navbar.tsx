import { useParams } from 'react-router';
import { CommandMenu } from '../../commands/CommandMenu';
import { getScreen, groupOf, menuGroups, useCurrentScreen, type Screen } from '../../commands/screens';
import { useT } from '../../i18n/provider';
import { NotificationsBell } from './NotificationsBell';
import { LanguageMenu, SizeMenu, ThemePicker } from './settings';
import { useScreenTitle, useTitleKey } from './useScreenTitle';

/** The screens above this one: its parent, the parent's parent… (Rapports ‹ Règles ‹ Clients). */
function ancestors(screen: Screen): Screen[] {
  const parent = screen.parent ? getScreen(screen.parent) : undefined;
  return parent ? [...ancestors(parent), parent] : [];
}

function Breadcrumb({ screen }: { screen: Screen | undefined }) {
  const t = useT();
  const params = useParams();
  const title = useScreenTitle(screen, params);
  const group = screen ? menuGroups.find((g) => g.id === groupOf(screen)) : undefined;
  return (
    <nav className="breadcrumb" aria-label={t('shell.breadcrumb')}>
      <ol>
        <li>{t('shell.screen.home')}</li>
        {group ? <li>{t(group.title)}</li> : null}
        {screen ? ancestors(screen).map((s) => <li key={s.id}>{t(s.title)}</li>) : null}
        {screen && screen.id !== 'home' ? <li aria-current="page">{title}</li> : null}
      </ol>
    </nav>
  );
}

/** The navbar: its buttons are the commands of the 'navbar.start', 'navbar' and 'navbar.end' menus. */
export function Navbar() {
  const t = useT();
  const screen = useCurrentScreen();
  const titleKey = useTitleKey(screen);
  return (
    <div className="navbar">
      <CommandMenu menu="navbar.start" variant="icons" label={t('shell.menu.label')} source="navbar" className="navbar-group" />
      <Breadcrumb key={titleKey} screen={screen} />
      <div className="navbar-right">
        <CommandMenu menu="navbar" variant="icons" label={t('shell.tools')} source="navbar" className="navbar-group" />
        <NotificationsBell />
        <LanguageMenu />
        <SizeMenu />
        <ThemePicker />
        <CommandMenu menu="navbar.end" variant="icons" label={t('shell.session')} source="navbar" className="navbar-group navbar-end" />
      </div>
    </div>
  );
}
