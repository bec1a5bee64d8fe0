/**
 * The screens behind the login, with what the router, the menu filter, the breadcrumb, the
 * visited-views tags and the command context need to know about each. Each screen is its own
 * lazily loaded module src/views/<view>/index.tsx (default export).
 */
import type { ComponentType } from 'react';
import { matchPath, type Params } from 'react-router';
import type { Role } from '../commands/registry';

export interface Screen {
  view: string;
  /** react-router path under '/'. */
  path: string;
  /** i18n id of the title shown in tags and the breadcrumb. */
  title: string;
  /** Menu group of the breadcrumb, as an i18n id. */
  group?: string;
  /** Who may open it: 'admin' screens send other users to /401. */
  requires: Role;
  load: () => Promise<{ default: ComponentType }>;
}

export const screens: Screen[] = [
  { view: 'home', path: '', title: 'shell.screen.home', requires: 'staff', load: () => import('../views/home') },
  {
    view: 'leads',
    path: 'landings_test/:id',
    title: 'shell.screen.leads',
    group: 'shell.menu.landings',
    requires: 'staff',
    load: () => import('../views/leads'),
  },
  {
    view: 'production',
    path: 'production/:category',
    title: 'shell.screen.production',
    group: 'shell.menu.production',
    requires: 'staff',
    load: () => import('../views/production'),
  },
  {
    view: 'customers',
    path: 'customers',
    title: 'shell.screen.customers',
    group: 'shell.menu.lives',
    requires: 'admin',
    load: () => import('../views/customers'),
  },
  {
    view: 'rules',
    path: 'customers/rules/:userId',
    title: 'shell.screen.rules',
    group: 'shell.menu.lives',
    requires: 'admin',
    load: () => import('../views/rules'),
  },
  {
    view: 'reports',
    path: 'customers/rules/rapports/:rule_id',
    title: 'shell.screen.reports',
    group: 'shell.menu.lives',
    requires: 'admin',
    load: () => import('../views/reports'),
  },
  {
    view: 'users',
    path: 'users',
    title: 'shell.screen.users',
    group: 'shell.menu.administration',
    requires: 'admin',
    load: () => import('../views/users'),
  },
  {
    view: 'exports',
    path: 'exports/:userId',
    title: 'shell.screen.exports',
    group: 'shell.menu.administration',
    requires: 'admin',
    load: () => import('../views/exports'),
  },
  {
    view: 'taboola',
    path: 'taboola',
    title: 'shell.screen.taboola',
    group: 'shell.menu.administration',
    requires: 'admin',
    load: () => import('../views/taboola'),
  },
];

/** What a route carries in its `handle`, read back with useMatches(). */
export interface ScreenHandle {
  screen: Screen;
}

/** The screen a path shows, with its parameters (tags and breadcrumbs of paths not on screen). */
export function screenForPath(path: string): { screen: Screen; params: Params } | undefined {
  for (const screen of screens) {
    const match = matchPath({ path: `/${screen.path}`, end: true }, path);
    if (match) return { screen, params: match.params };
  }
  return undefined;
}
