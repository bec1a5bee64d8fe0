import { useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useSignedInQuery } from '../../api/signedIn';
import { useCustomers } from '../../api/customers/hooks';
import { statementQuery } from '../../api/customers/queries';
import { CommandMenu } from '../../commands/CommandMenu';
import { useProvideCommandContext } from '../../commands/context';
import { useIntl, useT } from '../../i18n/provider';
import { parisMonth } from '../../shared/dates';
import { formatCents } from '../../shared/money';
import { MonthPicker } from '../../ui/MonthPicker';
import '../../styles/admin.css';
import './statement.css';
import type { StatementCommandContext } from './store';

const monthShape = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * A customer's statement (/customers/releve/:customerId?month=YYYY-MM, the current Paris month by
 * default): the month's lines (day, rule, channel, leads sold and returned, amount and credits)
 * and its totals, the months before and after, and the month as pdf, xlsx or csv.
 */
export default function StatementScreen() {
  const t = useT();
  const intl = useIntl();
  const customerId = Number(useParams().customerId);
  const [search, setSearch] = useSearchParams();
  const currentMonth = parisMonth();
  const asked = search.get('month') ?? '';
  const month = monthShape.test(asked) && asked <= currentMonth ? asked : currentMonth;
  const statement = useSignedInQuery(statementQuery(customerId, month));
  const customer = useCustomers().data?.find((c) => c.id === customerId);
  const data = statement.data;
  const money = (cents: number) => formatCents(cents, intl.locale);

  const ctx: StatementCommandContext = useMemo(() => ({ customerId, month, currentMonth, statement: data }), [customerId, month, currentMonth, data]);
  useProvideCommandContext({ view: 'statement', statement: ctx });

  const name = data?.customer.name ?? customer?.name;
  const monthLabel = intl.formatDate(`${month}-15T12:00:00Z`, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const channel = (c: string) => t(`statement.channel.${c}`);

  return (
    <section className="admin-view statement-view" aria-labelledby="statement-title">
      <h1 id="statement-title">{name ? t('statement.of', { name }) : t('shell.screen.statement')}</h1>
      <div className="admin-bar">
        <MonthPicker
          labels={[t('statement.month'), t('statement.year')]}
          value={month}
          max={currentMonth}
          onChange={(m) => setSearch({ month: m }, { replace: true })}
          field="statement"
        />
        <CommandMenu menu="statement.actions" variant="toolbar" label={t('statement.actions')} className="admin-actions" />
      </div>
      {statement.error ? (
        <p role="alert" className="admin-error">
          {statement.error.message || t('statement.error.load')}
        </p>
      ) : null}
      <div className="statement-table" role="region" aria-labelledby="statement-caption" tabIndex={0}>
        <table>
          <caption id="statement-caption">{t('statement.caption', { month: monthLabel })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('statement.column.date')}</th>
              <th scope="col">{t('statement.column.rule')}</th>
              <th scope="col">{t('statement.column.channel')}</th>
              <th scope="col" className="num">
                {t('statement.column.leads')}
              </th>
              <th scope="col" className="num">
                {t('statement.column.returned')}
              </th>
              <th scope="col" className="num">
                {t('statement.column.amount')}
              </th>
              <th scope="col" className="num">
                {t('statement.column.credits')}
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.lines.length === 0 ? (
              <tr>
                <td colSpan={7} className="muted">
                  {t('statement.empty')}
                </td>
              </tr>
            ) : null}
            {data?.lines.map((l) => (
              <tr key={`${l.date}|${l.rule?.id ?? ''}|${l.channel}`}>
                <td>{intl.formatDate(`${l.date}T12:00:00Z`, { dateStyle: 'short', timeZone: 'UTC' })}</td>
                <td>{l.rule?.name ?? t('statement.noRule')}</td>
                <td>{channel(l.channel)}</td>
                <td className="num">{intl.formatNumber(l.leads)}</td>
                <td className="num">{intl.formatNumber(l.returned)}</td>
                <td className="num">{money(l.amount_cents)}</td>
                <td className="num">{money(l.credits_cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data ? (
        <dl className="statement-totals" aria-label={t('statement.totals')}>
          <div>
            <dt>{t('statement.total')}</dt>
            <dd data-total="sales">{money(data.total_cents)}</dd>
          </div>
          <div>
            <dt>{t('statement.credits')}</dt>
            <dd data-total="credits">{money(data.credits_cents)}</dd>
          </div>
          <div className="statement-due">
            <dt>{t('statement.due')}</dt>
            <dd data-total="due">{money(data.due_cents)}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}
