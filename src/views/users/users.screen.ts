import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'users',
  path: 'users',
  title: 'shell.screen.users',
  requires: 'admin',
  entries: [{ menu: { group: 'administration', order: 1, label: 'shell.menu.users' }, keys: ['g u'] }],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    users: typeof screen;
  }
}
