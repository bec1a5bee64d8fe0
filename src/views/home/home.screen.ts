import { defineScreen } from '../../commands/screens';

export const screen = defineScreen({
  id: 'home',
  path: '',
  title: 'shell.screen.home',
  requires: 'staff',
  // 'g a' for Accueil, 'g h' for home.
  entries: [{ keys: ['g a', 'g h'] }],
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    home: typeof screen;
  }
}
