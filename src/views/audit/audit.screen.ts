import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'audit',
  path: 'audit',
  title: 'shell.screen.audit',
  requires: 'admin',
  entries: [{ menu: { group: 'administration', order: 4, label: 'shell.menu.audit' }, keys: ['g j'] }],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    audit: typeof screen;
  }
}
