import { defineScreen } from '../../commands/screens';

// Opened from the account's menu in the navbar (sessions.commands.ts) and the palette.
export const screen = defineScreen({
  id: 'sessions',
  path: 'account/sessions',
  title: 'shell.screen.sessions',
  requires: 'staff',
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    sessions: typeof screen;
  }
}
