import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'rules',
  path: 'customers/rules/:customerId',
  // 0: the rules of every customer.
  params: { customerId: 'id0' },
  title: 'shell.screen.rules',
  parent: 'customers',
  requires: 'admin',
  entries: [{ params: { customerId: '0' }, menu: { group: 'lives', order: 2, label: 'shell.menu.rules' }, keys: ['g r'] }],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    rules: typeof screen;
  }
}
