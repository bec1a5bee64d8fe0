import type { Customer } from '../../api/customers/contract';
import { useIntl, useT } from '../../i18n/provider';
import { formatCents } from '../../shared/money';
import './customers.css';

/**
 * This month's use of a customer's budget (sales minus credits against `monthly_budget_cents`) as
 * a progress bar that says it in words too ('1 200,00 € sur 5 000,00 € (24 %)'); 'Sans budget'
 * when the customer has none.
 */
export function BudgetBar({ customer }: { customer: Customer }) {
  const t = useT();
  const intl = useIntl();
  const budget = customer.monthly_budget_cents;
  if (budget === null) return <span className="muted">{t('customers.budget.none')}</span>;
  const used = customer.month_revenue_cents;
  const ratio = budget > 0 ? Math.min(1, Math.max(0, used / budget)) : 1;
  const percent = Math.round(ratio * 100);
  const text = t('customers.budget.used', {
    used: formatCents(used, intl.locale),
    budget: formatCents(budget, intl.locale),
    percent: intl.formatNumber(ratio, { style: 'percent' }),
  });
  const tone = ratio >= 1 ? 'full' : ratio >= 0.8 ? 'high' : 'low';
  return (
    <span
      className="budget"
      role="progressbar"
      aria-label={t('customers.budget.label', { name: customer.name })}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={text}
    >
      <span className={`budget-bar budget-${tone}`} aria-hidden="true">
        <span className="budget-done" style={{ width: `${percent}%` }} />
      </span>
      <span className="budget-text">{text}</span>
    </span>
  );
}
