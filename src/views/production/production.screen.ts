import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'production',
  path: 'production/:category',
  params: { category: ['pac', 'pv', 'other'] },
  title: 'shell.screen.production',
  requires: 'staff',
  // The Production menu shows once the user record is loaded (docs/product.md §2).
  when: (ctx) => ctx.user !== null,
  // 'g p' then the category: PAC, PV, Other.
  entries: [
    { params: { category: 'pac' }, title: 'shell.screen.production.pac', menu: { group: 'production', order: 1, label: 'shell.menu.pac' }, keys: ['g p p'] },
    { params: { category: 'pv' }, title: 'shell.screen.production.pv', menu: { group: 'production', order: 2, label: 'shell.menu.pv' }, keys: ['g p v'] },
    {
      params: { category: 'other' },
      title: 'shell.screen.production.other',
      menu: { group: 'production', order: 3, label: 'shell.menu.other' },
      keys: ['g p o'],
    },
  ],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    production: typeof screen;
  }
}
