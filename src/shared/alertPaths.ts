import type { Notification } from '../api/notifications/contract';

/** The console's page of an alert's subject: the customer's rules, the rule's customer's rules, the user's exports. */
export function alertPath(n: Notification): string {
  switch (n.kind) {
    case 'webhook_paused':
    case 'budget_reached':
    case 'return_rate_exceeded':
      return `/customers/rules/${n.customer.id}`;
    case 'cap_reached':
      return `/customers/rules/${n.rule.customer_id ?? 0}`;
    case 'export_failed':
      return `/exports/${n.export.user_id}`;
  }
}
