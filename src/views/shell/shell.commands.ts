/** The shell's own actions: palette, help, sidebar, fullscreen, error log, preferences, sign-out, tags. */
import { logout } from '../../api/auth/hooks';
import { queryClient } from '../../app/queryClient';
import type { Language } from '../../i18n';
import {
  closeAllVisitedViews,
  closeOtherVisitedViews,
  closeVisitedView,
  sizes,
  toggleSidebar,
  ui,
  type Size,
} from '../../state/ui';
import { signOutLocally } from '../../state/user';
import { defineCommand } from '../../commands/registry';

const section = 'shell';

defineCommand({
  id: 'shell.palette',
  title: 'commands.shell.palette',
  section,
  keys: ['mod+k'],
  requires: 'staff',
  palette: false,
  run: () => {
    ui.palette = { open: true, section: null };
  },
});

defineCommand({
  id: 'shell.help',
  title: 'commands.shell.help',
  section,
  keys: ['?'],
  requires: 'staff',
  run: () => {
    ui.helpOpen = true;
  },
});

defineCommand({
  id: 'shell.toggleSidebar',
  title: 'commands.shell.toggleSidebar',
  section,
  keys: ['mod+b'],
  requires: 'staff',
  run: () => toggleSidebar(),
});

defineCommand({
  id: 'shell.fullscreen',
  title: 'commands.shell.fullscreen',
  section,
  requires: 'staff',
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
  requires: 'staff',
  run: () => {
    ui.errorLogOpen = true;
  },
});

defineCommand<{ language: Language }>({
  id: 'shell.language',
  title: 'commands.shell.language',
  section,
  requires: 'staff',
  palette: false,
  run: (_ctx, args) => {
    ui.language = args.language;
  },
});

defineCommand<{ size: Size }>({
  id: 'shell.size',
  title: 'commands.shell.size',
  section,
  requires: 'staff',
  palette: false,
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
  requires: 'staff',
  palette: false,
  run: (_ctx, args) => {
    if (/^#[0-9a-f]{6}$/i.test(args.color)) ui.theme = args.color.toLowerCase();
  },
});

defineCommand({
  id: 'shell.logout',
  title: 'shell.logout',
  section,
  requires: 'staff',
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
  palette: false,
  run: (ctx, args) => ctx.navigate(args.path),
});

defineCommand<TagArgs>({
  id: 'tags.refresh',
  title: 'commands.tags.refresh',
  section: 'tags',
  requires: 'staff',
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
  run: (ctx) => {
    closeAllVisitedViews();
    ctx.navigate('/');
  },
});
