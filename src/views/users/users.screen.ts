import { defineScreen } from '../../commands/screens';

defineScreen({
  id: 'users',
  path: 'users',
  title: 'shell.screen.users',
  requires: 'admin',
  entries: [{ menu: { group: 'administration', order: 1, label: 'shell.menu.users' }, keys: ['g u'] }],
  load: () => import('.'),
});
