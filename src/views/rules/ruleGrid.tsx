import { useEffect, useMemo } from 'react';
import { queryClient } from '../../api/queryClient';
import { weekdays, type Rule, type Weekday } from '../../api/rules/contract';
import { useRulesToday } from '../../api/rules/hooks';
import { rulesQuery } from '../../api/rules/queries';
import { runCommand } from '../../commands/registry';
import { defaultFormatter, type Translate } from '../../grid/Grid';
import { localLoader } from '../../grid/localRows';
import type { GridColumnSpec, Row, RowLoader } from '../../grid/types';
import { useIntl, useT } from '../../i18n/provider';
import type { ListGrid } from '../../ui/ListScreen';
import { FillBar } from './FillBar';
import { ruleFills } from './store';

const asRule = (row: Row) => row as unknown as Rule;

function columnsFor(customerId: number): GridColumnSpec[] {
  return [
    { key: 'name', label: '', kind: 'text', width: 180 },
    // Filtered on one customer, the column would repeat its name on every row.
    { key: 'customer_name', label: '', kind: 'text', width: 150, hidden: customerId !== 0 },
    // Today's fill comes first after the names: what the screen is watched for. Sorted by count / cap.
    {
      key: 'fill',
      label: '',
      kind: 'number',
      width: 280,
      cell: (row) => <FillBar ruleId={asRule(row).id} initial={asRule(row).today} initialSold={asRule(row).sold} caps={asRule(row).caps} />,
    },
    { key: 'leads_number', label: '', kind: 'number', width: 90 },
    { key: 'priority', label: '', kind: 'number', width: 80 },
    { key: 'landings', label: '', kind: 'text', width: 180 },
    { key: 'zip', label: '', kind: 'text', width: 120 },
    { key: 'days', label: '', kind: 'text', width: 150 },
    { key: 'hours', label: '', kind: 'text', width: 110 },
    { key: 'state', label: '', kind: 'text', width: 110 },
  ];
}

/** A rule delivers when it is active and its customer is too. */
const stateOf = (r: Rule) => (!r.active ? 'paused' : r.customer_active ? 'active' : 'customerPaused');

const fillRatio = (f: Rule['today']) => (f.leads_number > 0 ? f.count / f.leads_number : 0);

/** Days as short names ('lun. mar. mer.'), or 'Tous les jours' / 'Du lundi au vendredi'. */
function daysText(on: readonly Weekday[], t: Translate): string {
  if (on.length === 7) return t('rules.days.every');
  if (on.length === 5 && on.every((d) => d !== 'saturday' && d !== 'sunday')) return t('rules.days.workdays');
  if (on.length === 0) return t('rules.days.none');
  return on.map((d) => t(`rules.day.short.${d}`)).join(' ');
}

const rowButtons = { args: (row: Row) => ({ ruleId: row.id }), width: 440 };

// Enter or a double click on a row: the rule's reports.
const onOpen = (row: Row) => void runCommand('rules.openReports', { ruleId: row.id }, 'hotkey');

/** The list 'Règles' of a customer (0: all): its columns, each rule with today's fill, and its loader. */
export function useRuleGrid(customerId: number): { loader: RowLoader; grid: ListGrid } {
  const t = useT();
  const intl = useIntl();
  const columns = useMemo(() => columnsFor(customerId), [customerId]);

  // Today's fills, asked every few seconds; the bars redraw themselves.
  const today = useRulesToday(customerId);
  useEffect(() => {
    if (today.data) ruleFills.byId = Object.fromEntries(today.data.data.map((f) => [f.id, f]));
  }, [today.data]);

  const format = useMemo(() => {
    const base = defaultFormatter(intl.locale);
    return (column: GridColumnSpec, value: unknown): string => {
      switch (column.key) {
        case 'landings':
          return ((value ?? []) as Rule['landings']).map((l) => l.name).join(', ');
        case 'zip':
          return (value as string[] | undefined)?.length ? (value as string[]).join(', ') : t('rules.zip.everywhere');
        case 'days':
          return daysText(
            String(value ?? '')
              .split(',')
              .filter(Boolean) as Weekday[],
            t,
          );
        case 'hours': {
          const h = value as Rule['hours'] | undefined;
          return h ? `${h.start} – ${h.end}` : '';
        }
        case 'state':
          return t(`rules.state.${String(value)}`);
        case 'fill':
          return typeof value === 'number' ? intl.formatNumber(value, { style: 'percent' }) : '';
        default:
          return base(column, value);
      }
    };
  }, [intl, t]);

  const loader = useMemo(
    () =>
      localLoader(
        async () =>
          (await queryClient.fetchQuery(rulesQuery(customerId))).map(
            (r) => ({ ...r, days: weekdays.filter((d) => r[d]).join(','), fill: fillRatio(r.today), state: stateOf(r) }) as unknown as Row,
          ),
        columns,
        (column, row) => format(column, row[column.key]),
      ),
    [customerId, columns, format],
  );
  const grid = useMemo(() => ({ queryKey: `rules|${customerId}`, columns, format, onOpen, rowButtons }), [customerId, columns, format]);
  return { loader, grid };
}
