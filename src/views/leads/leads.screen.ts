import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'leads',
  path: 'landings_test/:id',
  params: { id: 'ids' },
  title: 'shell.screen.leads',
  group: 'landings',
  requires: 'staff',
  // Reached through the landings (sidebar, palette, 'g l'), never without one.
  entries: [],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    leads: typeof screen;
  }
}
