import { parseDate, type CalendarDate } from '@internationalized/date';
import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Dialog,
  Group,
  Heading,
  Label,
  Popover,
} from 'react-aria-components';
import './date-range.css';

interface Props {
  /** The two fields' labels ('Du', 'Au'). */
  labels: readonly [string, string];
  /** 'YYYY-MM-DD', or '' for an open side. */
  start: string;
  end: string;
  onChange: (start: string, end: string) => void;
  /** Both days always set: emptying a field keeps the day it had. */
  required?: boolean;
  /** The names of the hidden inputs holding the two days ('YYYY-MM-DD'), for a form or a test. */
  names?: readonly [string, string];
  autoFocus?: boolean;
  /** 'field-compact' in a bar of controls. */
  className?: string;
}

const day = (iso: string): CalendarDate | null => {
  try {
    return iso ? parseDate(iso) : null;
  } catch {
    return null;
  }
};

/**
 * A period as two dates, in the console's language and not the browser's (react-aria under the
 * console's I18nProvider: 'jj/mm/aaaa' in French, 'mm/dd/yyyy' in English): each date is typed
 * segment by segment (digits, or the arrows up and down) or picked in a calendar (its button,
 * or Alt+↓ in the field; the arrows then move by day and week, Enter picks). The one date field
 * of the console: the production map, the lead statistics, the exports and the grid's date filters.
 */
export function DateRange({ labels, start, end, onChange, required, names, autoFocus, className = 'field field-compact' }: Props) {
  const from = day(start);
  const to = day(end);
  const side = (i: 0 | 1) => (value: CalendarDate | null) => {
    if (!value && required) return;
    const iso = value ? value.toString() : '';
    if (i === 0) onChange(iso, end);
    else onChange(start, iso);
  };
  return (
    <>
      <DateField label={labels[0]} value={from} max={to} onChange={side(0)} required={required} name={names?.[0]} autoFocus={autoFocus} className={className} />
      <DateField label={labels[1]} value={to} min={from} onChange={side(1)} required={required} name={names?.[1]} className={className} />
    </>
  );
}

interface FieldProps {
  label: string;
  value: CalendarDate | null;
  min?: CalendarDate | null;
  max?: CalendarDate | null;
  onChange: (value: CalendarDate | null) => void;
  required?: boolean;
  name?: string;
  autoFocus?: boolean;
  className: string;
}

function DateField({ label, value, min, max, onChange, required, name, autoFocus, className }: FieldProps) {
  return (
    <DatePicker
      className={`${className} date-field`}
      value={value}
      minValue={min ?? undefined}
      maxValue={max ?? undefined}
      onChange={onChange}
      isRequired={required}
      name={name}
      autoFocus={autoFocus}
      granularity="day"
      validationBehavior="aria"
    >
      <Label>{label}</Label>
      <Group className="date-field-group">
        <DateInput className="date-field-input">{(segment) => <DateSegment segment={segment} className="date-segment" />}</DateInput>
        <Button className="date-field-button">▾</Button>
      </Group>
      <Popover className="popover" placement="bottom start">
        <Dialog className="popover-dialog date-calendar-dialog">
          <Calendar className="date-calendar">
            <header className="date-calendar-head">
              <Button slot="previous" className="btn">
                ‹
              </Button>
              <Heading className="date-calendar-title" />
              <Button slot="next" className="btn">
                ›
              </Button>
            </header>
            <CalendarGrid className="date-calendar-grid">{(date) => <CalendarCell date={date} className="date-calendar-cell" />}</CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </DatePicker>
  );
}
