import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'statement',
  path: 'customers/releve/:customerId',
  params: { customerId: 'id' },
  title: 'shell.screen.statement',
  parent: 'customers',
  requires: 'admin',
  // Reached from a customer (its row, the palette's 'Relevé de …'), never without one.
  entries: [],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    statement: typeof screen;
  }
}
