/** Going places: one command per screen, the `g` sequences, and the jumps the palette lists. */
import type { LandingCategory } from '../../api/landings/contract';
import { ui } from '../../state/ui';
import { defineCommand } from '../../commands/registry';

const section = 'navigation';

defineCommand({
  id: 'nav.home',
  title: 'shell.screen.home',
  section,
  // 'g a' for Accueil, 'g h' for home.
  keys: ['g a', 'g h'],
  requires: 'staff',
  run: (ctx) => ctx.navigate('/'),
});

defineCommand({
  id: 'nav.landings',
  title: 'commands.nav.landings',
  section,
  keys: ['g l'],
  requires: 'staff',
  run: () => {
    ui.palette = { open: true, section: 'landings' };
  },
});

defineCommand<{ id: number | string }>({
  id: 'nav.landing',
  title: 'commands.nav.landing',
  section,
  requires: 'staff',
  palette: false,
  run: (ctx, args) => ctx.navigate(`/landings_test/${args.id}`),
});

defineCommand<{ category?: LandingCategory } | undefined>({
  id: 'nav.production',
  title: 'commands.nav.production',
  section,
  keys: ['g p'],
  requires: 'staff',
  // The Production menu shows once the user record is loaded (SPEC.md §2): same rule here.
  when: (ctx) => ctx.user !== null,
  run: (ctx, args) => ctx.navigate(`/production/${args?.category ?? 'pac'}`),
});

defineCommand({
  id: 'nav.customers',
  title: 'shell.screen.customers',
  section,
  keys: ['g c'],
  requires: 'admin',
  run: (ctx) => ctx.navigate('/customers'),
});

defineCommand<{ customerId?: number } | undefined>({
  id: 'nav.rules',
  title: 'shell.screen.rules',
  section,
  keys: ['g r'],
  requires: 'admin',
  run: (ctx, args) => ctx.navigate(`/customers/rules/${args?.customerId ?? 0}`),
});

defineCommand<{ ruleId: number }>({
  id: 'nav.reports',
  title: 'shell.screen.reports',
  section,
  requires: 'admin',
  palette: false,
  run: (ctx, args) => ctx.navigate(`/customers/rules/rapports/${args.ruleId}`),
});

defineCommand({
  id: 'nav.users',
  title: 'shell.screen.users',
  section,
  keys: ['g u'],
  requires: 'admin',
  run: (ctx) => ctx.navigate('/users'),
});

defineCommand<{ userId?: number } | undefined>({
  id: 'nav.exports',
  title: 'shell.screen.exports',
  section,
  keys: ['g e'],
  requires: 'admin',
  run: (ctx, args) => ctx.navigate(`/exports/${args?.userId ?? 0}`),
});

defineCommand({
  id: 'nav.taboola',
  title: 'shell.screen.taboola',
  section,
  keys: ['g t'],
  requires: 'admin',
  run: (ctx) => ctx.navigate('/taboola'),
});
