/** The shell's own actions: palette, help, sidebar, fullscreen, error log, preferences, sign-out, tags. */
import { logout } from '../../api/auth/hooks';
import { queryClient } from '../../api/queryClient';
import { languageNames, languages, type Language } from '../../i18n';
import { closeAllVisitedViews, closeOtherVisitedViews, closeVisitedView, sizes, toggleSidebar, ui, type Size } from '../../state/ui';
import { signOutLocally } from '../../state/user';
import { defineCommand } from '../../commands/registry';
import { entryForParams, mayOpenPath, screenForPath } from '../../commands/screens';
import { themeColours } from './themeColours';

declare module '../../commands/registry' {
  interface MenuRegistry {
    navbar: true;
    'navbar.start': true;
    'navbar.end': true;
    'tags.context': true;
  }
}

const section = 'shell';

defineCommand({
  id: 'shell.palette',
  title: 'commands.shell.palette',
  section,
  keys: ['mod+k'],
  requires: 'session',
  palette: false,
  icon: 'search',
  menus: [{ id: 'navbar', group: 'find', order: 1, label: 'shell.search' }],
  run: () => {
    ui.palette = { open: true, section: null };
  },
});

defineCommand({
  id: 'nav.landings',
  title: 'commands.nav.landings',
  section: 'navigation',
  keys: ['g l'],
  requires: 'staff',
  // Landings are data, not screens: the palette opens on them.
  run: () => {
    ui.palette = { open: true, section: 'landings' };
  },
});

defineCommand({
  id: 'shell.help',
  title: 'commands.shell.help',
  section,
  keys: ['?'],
  requires: 'session',
  icon: 'help',
  menus: [{ id: 'navbar', group: 'tools', order: 2 }],
  run: () => {
    ui.helpOpen = true;
  },
});

defineCommand({
  id: 'shell.toggleSidebar',
  title: 'commands.shell.toggleSidebar',
  section,
  keys: ['mod+b'],
  requires: 'session',
  icon: 'menu',
  menus: [{ id: 'navbar.start', order: 1, expanded: () => ui.sidebar.opened }],
  run: () => toggleSidebar(),
});

defineCommand({
  id: 'shell.fullscreen',
  title: 'commands.shell.fullscreen',
  section,
  requires: 'session',
  icon: 'fullscreen',
  menus: [{ id: 'navbar', group: 'tools', order: 4 }],
  run: async (ctx) => {
    if (!document.fullscreenEnabled) return ctx.toast.warning(ctx.t('shell.fullscreen.unsupported'));
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
  },
});

defineCommand({
  id: 'shell.errorLog',
  title: 'commands.shell.errorLog',
  section,
  requires: 'session',
  icon: 'bug',
  badge: () => ui.errorLogs.length,
  // Not on mobile (docs/product.md §2); the palette still reaches it.
  menus: [{ id: 'navbar', group: 'tools', order: 3, when: () => ui.device === 'desktop' }],
  run: () => {
    ui.errorLogOpen = true;
  },
});

defineCommand<{ language: Language }>({
  id: 'shell.language',
  title: 'commands.shell.language',
  section,
  requires: 'session',
  choices: (ctx) =>
    languages
      .filter((l) => l !== ui.language)
      .map((language) => ({ label: ctx.t('commands.palette.language', { name: languageNames[language] }), args: { language } })),
  run: (_ctx, args) => {
    ui.language = args.language;
  },
});

defineCommand<{ size: Size }>({
  id: 'shell.size',
  title: 'commands.shell.size',
  section,
  requires: 'session',
  choices: (ctx) =>
    sizes.filter((s) => s !== ui.size).map((size) => ({ label: ctx.t('commands.palette.size', { name: ctx.t(`shell.size.${size}`) }), args: { size } })),
  run: (ctx, args) => {
    if (!sizes.includes(args.size)) return;
    ui.size = args.size;
    ctx.toast.success(ctx.t('shell.size.changed'));
  },
});

defineCommand<{ color: string }>({
  id: 'shell.theme',
  title: 'commands.shell.theme',
  section,
  requires: 'session',
  choices: (ctx) => themeColours.filter((c) => c !== ui.theme).map((color) => ({ label: ctx.t('commands.palette.theme', { color }), args: { color } })),
  run: (_ctx, args) => {
    if (/^#[0-9a-f]{6}$/i.test(args.color)) ui.theme = args.color.toLowerCase();
  },
});

defineCommand({
  id: 'shell.twoFactor',
  title: 'twoFactor.title',
  section,
  requires: 'staff',
  icon: 'shield',
  // A phone's navbar has no room left: there the palette opens it.
  menus: [{ id: 'navbar.end', order: 0, when: () => ui.device === 'desktop' }],
  run: () => {
    ui.twoFactorOpen = true;
  },
});

defineCommand({
  id: 'shell.logout',
  title: 'shell.logout',
  section,
  requires: 'session',
  icon: 'logout',
  menus: [{ id: 'navbar.end', order: 2, tone: 'danger' }],
  run: async (ctx) => {
    try {
      await logout();
    } finally {
      signOutLocally();
      closeAllVisitedViews();
      queryClient.clear();
      ctx.navigate('/login');
    }
  },
});

type TagArgs = { path?: string } | undefined;

defineCommand<{ path: string }>({
  id: 'tags.open',
  title: 'commands.tags.open',
  section: 'tags',
  requires: 'staff',
  // The views visited, by screen title (a tag's data-dependent title would need its data here).
  choices: (ctx) =>
    ui.visitedViews
      .filter((v) => v.path !== ctx.path && mayOpenPath(v.path, ctx.user))
      .map((v) => {
        const found = screenForPath(v.path);
        const title = found ? ctx.t(entryForParams(found.screen, found.params)?.title ?? found.screen.title) : v.path;
        return { label: ctx.t('commands.palette.view', { title }), hint: v.path, args: { path: v.path } };
      }),
  run: (ctx, args) => ctx.navigate(args.path),
});

defineCommand<TagArgs>({
  id: 'tags.refresh',
  title: 'commands.tags.refresh',
  section: 'tags',
  requires: 'staff',
  menus: [{ id: 'tags.context', order: 1 }],
  run: async (ctx, args) => {
    const path = args?.path ?? ctx.path;
    await queryClient.invalidateQueries();
    ctx.navigate(`/redirect${path}`, { replace: true });
  },
});

defineCommand<TagArgs>({
  id: 'tags.close',
  title: 'commands.tags.close',
  section: 'tags',
  requires: 'staff',
  when: () => ui.visitedViews.length > 0,
  menus: [{ id: 'tags.context', order: 2 }],
  run: (ctx, args) => {
    const path = args?.path ?? ctx.path;
    const next = closeVisitedView(path);
    if (path === ctx.path) ctx.navigate(next ?? '/');
  },
});

defineCommand<TagArgs>({
  id: 'tags.closeOthers',
  title: 'commands.tags.closeOthers',
  section: 'tags',
  requires: 'staff',
  when: () => ui.visitedViews.length > 1,
  menus: [{ id: 'tags.context', order: 3 }],
  run: (ctx, args) => {
    const path = args?.path ?? ctx.path;
    closeOtherVisitedViews(path);
    if (path !== ctx.path) ctx.navigate(path);
  },
});

defineCommand({
  id: 'tags.closeAll',
  title: 'commands.tags.closeAll',
  section: 'tags',
  requires: 'staff',
  when: () => ui.visitedViews.length > 0,
  menus: [{ id: 'tags.context', order: 4 }],
  run: (ctx) => {
    closeAllVisitedViews();
    ctx.navigate('/');
  },
});
