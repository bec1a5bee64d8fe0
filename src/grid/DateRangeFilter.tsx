import { Button, Dialog, DialogTrigger, Popover, useLocale } from 'react-aria-components';
import { DateRange } from '../ui/DateRange';
import { dateRangeFilter, splitDateRange } from './columns';
import type { GridColumnSpec } from './types';

type Translate = (id: string, values?: Record<string, string | number>) => string;

const days = new Map<string, Intl.DateTimeFormat>();
const dayFormat = (locale: string | undefined) => {
  const key = locale ?? '';
  let f = days.get(key);
  if (!f) days.set(key, (f = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeZone: 'UTC' })));
  return f;
};

/**
 * A date column's filter: one button (one Tab stop in the header) showing the range, which opens
 * the two dates in a popover. The filter is 'start<>end' (either side may be empty).
 */
export function DateRangeFilter({
  column,
  value,
  t,
  locale,
  onChange,
}: {
  column: GridColumnSpec;
  value: string;
  t: Translate;
  locale?: string;
  onChange: (v: string) => void;
}) {
  const [start, end] = splitDateRange(value);
  // The console's language (react-aria's I18nProvider) when the screen names none, not the browser's.
  const consoleLocale = useLocale().locale;
  const show = (d: string) => (d ? dayFormat(locale ?? consoleLocale).format(new Date(`${d}T00:00:00Z`)) : '…');
  const text = start || end ? `${show(start)} – ${show(end)}` : t('grid.any');
  return (
    <DialogTrigger>
      <Button className="lg-date-button" aria-label={t('grid.filterByValue', { column: column.label, value: text })}>
        {text}
      </Button>
      <Popover className="popover" placement="bottom start">
        <Dialog className="popover-dialog lg-date-dialog" aria-label={t('grid.filterBy', { column: column.label })}>
          <DateRange
            labels={[t('grid.filterFrom', { column: column.label }), t('grid.filterTo', { column: column.label })]}
            start={start}
            end={end}
            names={[`${column.key}-from`, `${column.key}-to`]}
            autoFocus
            className="field field-compact"
            onChange={(from, to) => onChange(dateRangeFilter(from, to))}
          />
          <Button className="btn" isDisabled={!start && !end} onPress={() => onChange('')}>
            {t('grid.clearDates')}
          </Button>
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
