/**
 * Screens declared once. Each screen of the console is one `defineScreen` call in
 * src/views/<screen>/<screen>.screen.ts (loaded by src/app/screens.ts); the router, the sidebar,
 * the breadcrumb, the visited-view tags, the navigation commands, the palette's screen entries
 * and the navigation table of docs/keyboard.md are all derived from these declarations.
 *
 *   export const screen = defineScreen({
 *     id: 'rules',                                 // also the command context's `view`
 *     path: 'customers/rules/:customerId',         // react-router path under '/'
 *     params: { customerId: 'id0' },               // each parameter's rule: a bad value shows /404
 *     title: 'shell.screen.rules',                 // i18n id (tags, breadcrumb, palette, help)
 *     parent: 'customers',                         // breadcrumb parent
 *     requires: 'admin',
 *     entries: [{ params: { customerId: '0' }, menu: { group: 'lives', order: 2, label: 'shell.menu.rules' }, keys: ['g r'] }],
 *     load: () => import('./index'),
 *   });
 *   declare module '../../commands/screens' {
 *     interface ScreenRegistry { rules: typeof screen }
 *   }
 *
 * The registry makes the screen's id a token: a `parent`, a command's `scope`, `ctx.view` and
 * `hrefOf('rules', { customerId })` naming a screen that is not declared, or a parameter its
 * path does not have, fail typecheck.
 *
 * Every entry point (`entries`, one without parameters by default) becomes a command: the first
 * `nav.<id>` (which also takes parameters as arguments, for the palette's entity jumps), the
 * others `nav.<id>.<parameter values>`. A screen whose parameters name data (a landing, a rule)
 * declares `entries: []` and is reached through `nav.<id>` with arguments.
 */
import type { ComponentType } from 'react';
import type { User } from '../api/auth/contract';
import type { Translate } from '../i18n';
import { matchPath, useMatches, type Params } from 'react-router';
import type { IconName } from '../ui/icons';
import type { CommandContext } from './context';
import { defineCommand, type Role } from './registry';

/** How a path parameter is checked: a serial id, an id or 0 ('all'), ids joined by commas, or one of a list. */
export type ParamRule = 'id' | 'id0' | 'ids' | readonly string[];

export const menuGroups = [
  { id: 'landings', title: 'shell.menu.landings', icon: 'landing' },
  { id: 'facebook', title: 'shell.menu.facebook', icon: 'facebook' },
  { id: 'production', title: 'shell.menu.production', icon: 'production' },
  { id: 'lives', title: 'shell.menu.lives', icon: 'lives' },
  { id: 'administration', title: 'shell.menu.administration', icon: 'admin' },
] as const satisfies readonly { id: string; title: string; icon: IconName }[];

export type MenuGroupId = (typeof menuGroups)[number]['id'];

export interface ScreenEntry {
  /** Parameter values of this entry point, e.g. { category: 'pv' }. */
  params?: Readonly<Record<string, string>>;
  /** i18n id of its full name (palette, tags, breadcrumb); the screen's title when absent. */
  title?: string;
  /** Its sidebar link: group, order in the group and the short label (i18n id) shown there. */
  menu?: { group: MenuGroupId; order: number; label?: string };
  keys?: readonly string[];
}

/** Each screen adds itself, `<id>: typeof screen`, from its *.screen.ts (see above). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ScreenRegistry {}

/** The id of a declared screen. */
export type ScreenId = keyof ScreenRegistry & string;

/** 'customers/rules/:customerId' → 'customerId' (any name for a path not known). */
type PathParamNames<Path extends string> = string extends Path
  ? string
  : Path extends `${string}:${infer Name}/${infer Rest}`
    ? Name | PathParamNames<Rest>
    : Path extends `${string}:${infer Name}`
      ? Name
      : never;

type PathOf<Id extends ScreenId> = ScreenRegistry[Id] extends { path: infer Path extends string } ? Path : never;

/** The parameters of a screen's path, by name. */
export type ScreenParams<Id extends ScreenId> = { readonly [Name in PathParamNames<PathOf<Id>>]: string | number };

export interface Screen<Id extends string = ScreenId, Path extends string = string> {
  id: Id;
  path: Path;
  params?: Readonly<Record<PathParamNames<Path>, ParamRule>>;
  title: string;
  /** Breadcrumb group when no entry of the screen has a menu place. */
  group?: MenuGroupId;
  parent?: ScreenId;
  requires: Role;
  /** Shown and reachable only when this holds (Production: once the user record is loaded). */
  when?: (ctx: CommandContext) => boolean;
  entries?: readonly ScreenEntry[];
  load: () => Promise<{ default: ComponentType }>;
}

/**
 * A screen's title when it depends on data (the lead view's landing names), declared in
 * src/views/<screen>/<screen>.title.ts and loaded with the shell (src/views/shell/useScreenTitle.ts),
 * not with the routes: its queries and their contracts are the signed-in console's, which the
 * sign-in page does without. `useTitle` gives undefined while unknown; it is called only where the
 * user may open the screen (mayOpen), and callers key their component by screen and that, so the
 * hook's place is stable.
 */
export interface ScreenTitle {
  screen: ScreenId;
  useTitle: (params: Params) => string | undefined;
}

/** What a screen's route carries in its `handle`. */
export interface ScreenHandle {
  screen: Screen;
}

/** The screen of the current route, if the route is one. */
export const useCurrentScreen = () => (useMatches().at(-1)?.handle as ScreenHandle | undefined)?.screen;

const declared: Screen[] = [];

export function defineScreen<const Id extends string, const Path extends string>(declaration: Screen<Id, Path>): Screen<Id, Path> {
  // Its id joins ScreenId through the registry entry declared beside it.
  const screen = declaration as unknown as Screen;
  if (declared.some((s) => s.id === screen.id)) throw new Error(`Screen "${screen.id}" is already defined`);
  declared.push(screen);
  // A screen without entry points is still reached by `nav.<id>` with its parameters as arguments.
  const entries = entriesOf(screen);
  (entries.length ? entries : [{}]).forEach((entry, i) => defineNavigation(screen, entry, i));
  return declaration;
}

/**
 * A page outside the shell, open without signing in (/login, /404, the invitation's page): no
 * sidebar, tags, palette or navigation command, only a path, the title of the browser tab and the
 * lazy component. Declared in src/views/<screen>/<screen>.screen.ts like the others.
 */
export interface PublicScreen {
  id: string;
  path: string;
  /** i18n id of the browser tab's title. */
  title: string;
  load: () => Promise<{ default: ComponentType }>;
}

const declaredPublic: PublicScreen[] = [];

export function definePublicScreen(screen: PublicScreen): PublicScreen {
  if (declaredPublic.some((s) => s.id === screen.id)) throw new Error(`Public screen "${screen.id}" is already defined`);
  declaredPublic.push(screen);
  return screen;
}

export const publicScreens = (): readonly PublicScreen[] => declaredPublic;

/** The browser tab's title of a public page, set by the router and written into the prerendered sign-in page. */
export const publicPageTitle = (t: Translate, screen: PublicScreen) => `${t(screen.title)} · ${t('shell.brand')}`;

/** Every declared screen, home first, then by path. */
export const allScreens = (): readonly Screen[] => declared;

export const getScreen = (id: ScreenId) => declared.find((s) => s.id === id);

export const entriesOf = (screen: Screen): readonly ScreenEntry[] => screen.entries ?? [{}];

/** The command of an entry point: `nav.<id>` for the first, `nav.<id>.<values>` for the others. */
export function navCommandId(screen: Screen, index: number): string {
  if (index === 0 || screen.entries === undefined) return `nav.${screen.id}`;
  return `nav.${screen.id}.${Object.values(screen.entries[index].params ?? {}).join('.')}`;
}

const idPattern = /^[1-9]\d{0,9}$/;
const maxSerialId = 2_147_483_647;
const isId = (v: string) => idPattern.test(v) && Number(v) <= maxSerialId;

function paramValid(rule: ParamRule, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (rule === 'id') return isId(value);
  if (rule === 'id0') return value === '0' || isId(value);
  if (rule === 'ids') return value.split(',').every(isId);
  return rule.includes(value);
}

/** Whether the parameters of a matched path are ones the screen can show (else the 404 page). */
export function paramsValid(screen: Screen, params: Params): boolean {
  return Object.entries(screen.params ?? {}).every(([name, rule]) => paramValid(rule, params[name]));
}

/**
 * The one way to write a link to a screen: hrefOf('rules', { customerId: 3 }) → '/customers/rules/3',
 * with an optional query (`?departement=30`). Screen and parameter names are checked by typecheck.
 */
export function hrefOf<Id extends ScreenId>(id: Id, params: ScreenParams<Id>, query?: Readonly<Record<string, string>>): string {
  const screen = getScreen(id);
  if (!screen) throw new Error(`Screen "${id}" is not declared`);
  const path = screenPath(screen, params as Readonly<Record<string, string | number>>);
  return query && Object.keys(query).length ? `${path}?${new URLSearchParams(query)}` : path;
}

/** The path of a screen for these parameters: 'customers/rules/:customerId' + { customerId: 3 } → '/customers/rules/3'. */
export function screenPath(screen: Screen, params: Readonly<Record<string, string | number>> = {}): string {
  // Parameters are ids, id lists ('3,5') or names of a list: commas stay as they are.
  return `/${screen.path.replace(/:(\w+)/g, (_, name: string) => String(params[name] ?? '').replace(/[^\w,-]/g, encodeURIComponent))}`;
}

/** The screen a path shows, with its parameters (tags and breadcrumbs of paths not on screen). */
export function screenForPath(path: string): { screen: Screen; params: Params } | undefined {
  for (const screen of declared) {
    const match = matchPath({ path: `/${screen.path}`, end: true }, path);
    if (match && paramsValid(screen, match.params)) return { screen, params: match.params };
  }
  return undefined;
}

/**
 * Whether `user` may open `screen`: a staff screen anyone signed in, an admin screen once the user
 * is known to be an admin. Before that (a reload, a normal user's bookmark) nothing of the screen
 * runs: no tag, no title from its data, so no admin API call answered 403.
 */
export const mayOpen = (screen: Pick<Screen, 'requires'>, user: User | null) => screen.requires !== 'admin' || user?.admin === true;

/** Whether `user` may open what `path` shows (a visited view, a tag). */
export function mayOpenPath(path: string, user: User | null): boolean {
  const found = screenForPath(path);
  return found === undefined || mayOpen(found.screen, user);
}

/** The entry point whose parameters these are, if any (its title names the tag). */
export function entryForParams(screen: Screen, params: Params): ScreenEntry | undefined {
  return screen.entries?.find((e) => Object.entries(e.params ?? {}).every(([k, v]) => params[k] === v));
}

/** The breadcrumb's group: the menu group of the screen's entries, else its declared group, else its parent's. */
export function groupOf(screen: Screen): MenuGroupId | undefined {
  const menu = screen.entries?.find((e) => e.menu)?.menu;
  if (menu) return menu.group;
  if (screen.group) return screen.group;
  const parent = screen.parent ? getScreen(screen.parent) : undefined;
  return parent ? groupOf(parent) : undefined;
}

function defineNavigation(screen: Screen, entry: ScreenEntry, index: number) {
  defineCommand<Readonly<Record<string, string | number>> | undefined>({
    id: navCommandId(screen, index),
    title: entry.title ?? screen.title,
    section: 'navigation',
    keys: entry.keys,
    requires: screen.requires,
    when: screen.when,
    // Jumps are listed by the palette as screens (or as the entities they open), not as actions.
    palette: false,
    run: (ctx, args) => ctx.navigate(screenPath(screen, { ...entry.params, ...args })),
  });
}
