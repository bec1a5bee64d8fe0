import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'customers',
  path: 'customers',
  title: 'shell.screen.customers',
  requires: 'admin',
  entries: [{ menu: { group: 'lives', order: 1, label: 'shell.menu.customers' }, keys: ['g c'] }],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    customers: typeof screen;
  }
}
