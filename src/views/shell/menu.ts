/**
 * The sidebar menu of SPEC.md §2, as data: groups of entries, each entry running a command.
 * Filtering follows the route roles: admins see everything, others the entries whose command
 * they may run; Production needs the user record.
 */
import type { Landing } from '../../api/landings/contract';
import type { User } from '../../api/auth/contract';
import { getCommand, isPermitted } from '../../commands/registry';
import type { IconName } from './icons';

export interface MenuEntry {
  /** Route path of the child (for landings: the name with its first space removed). */
  routePath: string;
  href: string;
  /** i18n id, or the literal landing name. */
  title: string;
  literal?: boolean;
  command: string;
  args?: unknown;
}

export interface MenuGroup {
  id: string;
  title: string;
  icon: IconName;
  entries: MenuEntry[];
}

const landingEntry = (l: Landing): MenuEntry => ({
  routePath: l.name.replace(' ', ''),
  href: `/landings_test/${l.id}`,
  title: l.name,
  literal: true,
  command: 'nav.landing',
  args: { id: l.id },
});

const production = (category: string, title: string): MenuEntry => ({
  routePath: category,
  href: `/production/${category}`,
  title,
  command: 'nav.production',
  args: { category },
});

export function buildMenu(user: User | null, landings: readonly Landing[], facebook: readonly Landing[]): MenuGroup[] {
  const groups: MenuGroup[] = [
    { id: 'landings', title: 'shell.menu.landings', icon: 'landing', entries: landings.map(landingEntry) },
    { id: 'facebook', title: 'shell.menu.facebook', icon: 'facebook', entries: facebook.map(landingEntry) },
  ];
  if (user) {
    groups.push({
      id: 'production',
      title: 'shell.menu.production',
      icon: 'production',
      entries: [production('pac', 'shell.menu.pac'), production('pv', 'shell.menu.pv'), production('other', 'shell.menu.other')],
    });
  }
  groups.push(
    {
      id: 'lives',
      title: 'shell.menu.lives',
      icon: 'lives',
      entries: [
        { routePath: 'customers', href: '/customers', title: 'shell.menu.customers', command: 'nav.customers' },
        { routePath: 'rules/0', href: '/customers/rules/0', title: 'shell.menu.rules', command: 'nav.rules', args: { customerId: 0 } },
      ],
    },
    {
      id: 'administration',
      title: 'shell.menu.administration',
      icon: 'admin',
      entries: [
        { routePath: 'users', href: '/users', title: 'shell.menu.users', command: 'nav.users' },
        { routePath: 'exports/0', href: '/exports/0', title: 'shell.menu.exports', command: 'nav.exports', args: { userId: 0 } },
        { routePath: 'taboola', href: '/taboola', title: 'shell.menu.taboola', command: 'nav.taboola' },
      ],
    },
  );
  return groups
    .map((g) => ({ ...g, entries: g.entries.filter((e) => permitted(user, e.command)) }))
    .filter((g) => g.entries.length > 0 || g.id === 'landings' || g.id === 'facebook');
}

function permitted(user: User | null, id: string) {
  const command = getCommand(id);
  return command !== undefined && isPermitted(command, user);
}
