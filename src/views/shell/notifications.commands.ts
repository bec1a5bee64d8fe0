/** The bell's command: the notifications panel, from the navbar button, its key and the palette ('Notifications'). */
import { defineCommand } from '../../commands/registry';
import { notificationsPanel } from './notificationsPanel';

defineCommand({
  id: 'notifications.open',
  title: 'commands.notifications.open',
  section: 'shell',
  keys: ['g n'],
  requires: 'admin',
  run: () => {
    notificationsPanel.open = true;
  },
});
