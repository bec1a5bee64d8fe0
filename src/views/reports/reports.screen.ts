import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'reports',
  path: 'customers/rules/rapports/:ruleId',
  params: { ruleId: 'id' },
  title: 'shell.screen.reports',
  parent: 'rules',
  requires: 'admin',
  // Reached from a rule (its row, the palette), never without one.
  entries: [],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    reports: typeof screen;
  }
}
