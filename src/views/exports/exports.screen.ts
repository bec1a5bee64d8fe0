import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'exports',
  path: 'exports/:userId',
  // 0: the exports of every user.
  params: { userId: 'id0' },
  title: 'shell.screen.exports',
  requires: 'admin',
  entries: [{ params: { userId: '0' }, menu: { group: 'administration', order: 2, label: 'shell.menu.exports' }, keys: ['g e'] }],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    exports: typeof screen;
  }
}
