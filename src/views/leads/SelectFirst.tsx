import { useState } from 'react';
import { runCommand } from '../../commands/registry';
import { useT } from '../../i18n/provider';

const MAX = 500;

/** 'Nombre de résultats' (0–500): selects the first N leads of the list as the number changes. */
export function SelectFirst() {
  const t = useT();
  const [value, setValue] = useState('');
  const n = Number(value);
  const invalid = value !== '' && (!Number.isInteger(n) || n < 0 || n > MAX);
  return (
    <label className="field field-compact leads-count">
      <span>{t('leads.count')}</span>
      <input
        type="number"
        min={0}
        max={MAX}
        step={1}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? 'leads-count-error' : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          const next = Number(e.target.value);
          if (e.target.value !== '' && Number.isInteger(next) && next >= 0 && next <= MAX) void runCommand('leads.selectFirst', { count: next }, 'button');
        }}
      />
      {invalid ? (
        <span id="leads-count-error" className="leads-invalid" role="alert">
          {t('leads.count.invalid')}
        </span>
      ) : null}
    </label>
  );
}
