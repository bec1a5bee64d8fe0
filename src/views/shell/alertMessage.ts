import type { Notification } from '../../api/notifications/contract';
import type { Translate } from '../../i18n';

/** What an alert says in the console's language; a deleted subject is named as such. */
export function alertMessage(t: Translate, n: Notification): string {
  const name = (value: string | null) => value ?? t('notifications.deleted');
  switch (n.kind) {
    case 'webhook_paused':
    case 'budget_reached':
      return t(`notifications.kind.${n.kind}`, { customer: name(n.customer.name) });
    case 'return_rate_exceeded':
      return t('notifications.kind.return_rate_exceeded', { customer: name(n.customer.name), rate: n.rate });
    case 'cap_reached':
      return t('notifications.kind.cap_reached', { rule: name(n.rule.name), span: n.span });
    case 'export_failed':
      return t('notifications.kind.export_failed', { id: n.export.id, user: name(n.user.name) });
  }
}
