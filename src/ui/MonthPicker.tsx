import { useIntl } from '../i18n/provider';
import { SingleSelect, type Choice } from './ChoiceSelect';

interface Props {
  /** The two selects' labels ('Mois', 'Année'). */
  labels: readonly [string, string];
  /** 'YYYY-MM'. */
  value: string;
  /** The last month that can be chosen ('YYYY-MM'); the first is January of `max`'s year minus `years` − 1. */
  max: string;
  years?: number;
  onChange: (month: string) => void;
  /** `data-field` of the two selects: `${field}-month`, `${field}-year`. */
  field: string;
}

/**
 * A month as two selects, month then year, named in the console's language (the native
 * `<input type="month">` speaks the browser's, whatever the language chosen here). A year whose
 * months run out before the chosen one keeps its last month.
 */
export function MonthPicker({ labels, value, max, years = 10, onChange, field }: Props) {
  const intl = useIntl();
  const [year, month] = value.split('-').map(Number) as [number, number];
  const [maxYear, maxMonth] = max.split('-').map(Number) as [number, number];
  const lastMonth = (y: number) => (y === maxYear ? maxMonth : 12);
  const months: Choice[] = Array.from({ length: lastMonth(year) }, (_, i) => ({
    id: i + 1,
    name: intl.formatDate(Date.UTC(2000, i, 15), { month: 'long', timeZone: 'UTC' }),
  }));
  const first = Math.min(year, maxYear - years + 1);
  const yearChoices: Choice[] = Array.from({ length: maxYear - first + 1 }, (_, i) => ({ id: maxYear - i, name: String(maxYear - i) }));
  const choose = (y: number, m: number) => onChange(`${y}-${String(Math.min(m, lastMonth(y))).padStart(2, '0')}`);
  return (
    <>
      <SingleSelect
        label={labels[0]}
        placeholder={labels[0]}
        items={months}
        value={month}
        onChange={(m) => m !== null && choose(year, Number(m))}
        field={`${field}-month`}
      />
      <SingleSelect
        label={labels[1]}
        placeholder={labels[1]}
        items={yearChoices}
        value={year}
        onChange={(y) => y !== null && choose(Number(y), month)}
        field={`${field}-year`}
      />
    </>
  );
}
