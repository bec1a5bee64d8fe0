import { useRef, useState, type KeyboardEvent } from 'react';
import { weekdays, type Weekday } from '../../api/rules/contract';
import { useT } from '../../i18n/provider';
import { daysOf, isPreset, rovingIndex, type DayPreset } from './ruleForm';

interface Props {
  /** Prefix of the ids ('rule' or 'rule-edit'). */
  idPrefix: string;
  days: Readonly<Record<Weekday, boolean>>;
  onChange: (days: Record<Weekday, boolean>) => void;
  /** Id of the error shown under the group, when there is one. */
  errorId?: string;
}

const presets: DayPreset[] = ['workdays', 'every'];

/**
 * The rule's days as one group (docs/keyboard.md): the presets 'Lun–Ven' and 'Tous les jours',
 * then the seven days as a single tab stop; the arrow keys, Home and End move between days (roving
 * focus), Space ticks the day focused.
 */
export function DayGroup({ idPrefix, days, onChange, errorId }: Props) {
  const t = useT();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  // The day that takes the Tab: the last one focused, else the first.
  const [current, setCurrent] = useState(0);
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>, index: number) => {
    const next = rovingIndex(e.key, index, weekdays.length);
    if (next === null) return;
    e.preventDefault();
    setCurrent(next);
    boxes.current[next]?.focus();
  };
  const labelId = `${idPrefix}-days-label`;
  return (
    <div className="day-group" role="group" aria-labelledby={labelId} aria-describedby={errorId}>
      <span id={labelId} className="lives-label">
        {t('rules.form.days')}
      </span>
      <div className="day-presets">
        {presets.map((preset) => (
          <button
            key={preset}
            type="button"
            id={`${idPrefix}-days-${preset}`}
            className="btn day-preset"
            aria-pressed={isPreset(days, preset)}
            onClick={() => onChange(daysOf(preset))}
          >
            {t(`rules.days.preset.${preset}`)}
          </button>
        ))}
      </div>
      <div className="days-list">
        {weekdays.map((d, i) => (
          <label key={d} className="check day-check" data-selected={days[d] || undefined}>
            <input
              ref={(el) => {
                boxes.current[i] = el;
              }}
              type="checkbox"
              className="visually-hidden"
              id={`${idPrefix}-day-${d}`}
              value={d}
              checked={days[d]}
              tabIndex={i === current ? 0 : -1}
              onFocus={() => setCurrent(i)}
              onKeyDown={(e) => onKeyDown(e, i)}
              onChange={(e) => onChange({ ...days, [d]: e.target.checked })}
            />
            <span className="check-box" aria-hidden="true" />
            {t(`rules.day.${d}`)}
          </label>
        ))}
      </div>
    </div>
  );
}
