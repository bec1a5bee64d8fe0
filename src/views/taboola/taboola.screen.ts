import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'taboola',
  path: 'taboola',
  title: 'shell.screen.taboola',
  requires: 'admin',
  entries: [{ menu: { group: 'administration', order: 3, label: 'shell.menu.taboola' }, keys: ['g t'] }],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    taboola: typeof screen;
  }
}
