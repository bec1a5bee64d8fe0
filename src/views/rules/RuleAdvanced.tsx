import { Checkbox } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { useFacebookLandings, useLandings } from '../../api/landings/hooks';
import { capWindows, type FilterOp } from '../../api/rules/contract';
import { opsOf } from '../../api/rules/filters';
import { useT } from '../../i18n/provider';
import { CAP, capWarnings, filterColumns, newFilter, PRIORITY, WEIGHT, withColumn, type FilterColumn, type FilterDraft } from './ruleAdvanced';
import type { RuleField } from './ruleForm';
import { formOf } from './store';

interface Props {
  /** Whose form: the creation's or the edit's (store.formOf). */
  mode: 'create' | 'edit';
  /** Field id of the form ('rule-…' or 'rule-edit-…'). */
  id: (field: string) => string;
  /** Clears a field's message as soon as the user changes it. */
  touched: (field: RuleField) => void;
}

/** The landings with their form columns, standard and facebook: what filters are built from. */
export function useLandingColumns() {
  const standard = useLandings();
  const facebook = useFacebookLandings();
  return [...(standard.data ?? []), ...(facebook.data ?? [])];
}

/**
 * The rule form's 'Avancé' section (docs/product.md §5, issue 25): caps per hour, week and month,
 * priority, weight, exclusivity and filters on the chosen landings' columns. A disclosure: its
 * button says whether it is open; every field in it is a native control, reachable by Tab.
 */
export function RuleAdvanced({ mode, id, touched }: Props) {
  const t = useT();
  const { draft, errors, badFilters, advancedOpen } = useSnapshot(formOf(mode));
  // Changes go to the live form (valtio), read at the moment of each event.
  const live = () => formOf(mode);
  const a = draft.advanced;
  const landings = useLandingColumns();
  const columns = filterColumns(landings, draft.landings);
  const warnings = capWarnings(a.caps, draft.leads_number);
  const invalid = (field: RuleField) => (errors[field] ? { 'aria-invalid': true, 'aria-describedby': id(`${field}-error`) } : {});
  const error = (field: RuleField, params: Record<string, string> = {}) =>
    errors[field] ? (
      <span id={id(`${field}-error`)} className="field-error">
        {t(errors[field], params)}
      </span>
    ) : null;
  const labelOf = (c: FilterColumn) => (c.label.startsWith('rules.advanced.column.') ? t(c.label) : c.label);

  const setFilter = (i: number, next: FilterDraft) => {
    live().draft.advanced.filters[i] = next;
    live().badFilters = live().badFilters.filter((n) => n !== i);
    touched('filters');
  };
  const addFilter = () => {
    if (!columns.length) return;
    live().draft.advanced.filters.push(newFilter(columns[0]));
    const n = live().draft.advanced.filters.length - 1;
    requestAnimationFrame(() => document.getElementById(id(`filter-${n}-column`))?.focus());
  };
  const removeFilter = (i: number) => {
    live().draft.advanced.filters.splice(i, 1);
    live().badFilters = [];
    touched('filters');
    // The focus goes to the filter now in its place, else to 'Ajouter un filtre'.
    requestAnimationFrame(() => (document.getElementById(id(`filter-${i}-column`)) ?? document.getElementById(id('filter-add')))?.focus());
  };

  return (
    <section className="rule-advanced" aria-labelledby={id('advanced-toggle')}>
      <h3 className="rule-advanced-title">
        <button
          type="button"
          id={id('advanced-toggle')}
          className="rule-advanced-toggle"
          aria-expanded={advancedOpen}
          aria-controls={id('advanced')}
          onClick={() => (live().advancedOpen = !live().advancedOpen)}
        >
          <span aria-hidden="true">{advancedOpen ? '▾' : '▸'}</span> {t('rules.advanced.title')}
        </button>
      </h3>
      <div id={id('advanced')} hidden={!advancedOpen} className="rule-advanced-body">
        <fieldset className="rule-fieldset">
          <legend>{t('rules.advanced.caps')}</legend>
          <div className="form-row">
            {capWindows.map((w) => (
              <div className="field" key={w}>
                <label htmlFor={id(`cap-${w}`)}>{t(`rules.advanced.cap.${w}`)}</label>
                <input
                  id={id(`cap-${w}`)}
                  type="number"
                  min={CAP.min}
                  max={CAP.max}
                  step={1}
                  placeholder={t('rules.advanced.cap.none')}
                  value={a.caps[w]}
                  {...invalid(`cap_${w}`)}
                  onChange={(e) => {
                    live().draft.advanced.caps[w] = e.target.value;
                    touched(`cap_${w}`);
                  }}
                />
                {error(`cap_${w}`)}
              </div>
            ))}
          </div>
          <span className="field-hint">{t('rules.advanced.caps.hint')}</span>
          {warnings.map((w) => (
            <span key={w} className="field-hint field-warning" role="status">
              {t(`rules.advanced.cap.warning.${w}`)}
            </span>
          ))}
        </fieldset>

        <div className="form-row">
          <div className="field">
            <label htmlFor={id('priority')}>{t('rules.advanced.priority')}</label>
            <select
              id={id('priority')}
              value={a.priority}
              aria-describedby={id('priority-hint')}
              onChange={(e) => {
                live().draft.advanced.priority = e.target.value;
                touched('priority');
              }}
            >
              {Array.from({ length: PRIORITY.max - PRIORITY.min + 1 }, (_, i) => String(i + PRIORITY.min)).map((p) => (
                <option key={p} value={p}>
                  {p === '1' ? t('rules.advanced.priority.first') : p === '9' ? t('rules.advanced.priority.last') : p}
                </option>
              ))}
            </select>
            <span id={id('priority-hint')} className="field-hint">
              {t('rules.advanced.priority.hint')}
            </span>
            {error('priority')}
          </div>
          <div className="field">
            <label htmlFor={id('weight')}>{t('rules.advanced.weight')}</label>
            <input
              id={id('weight')}
              type="number"
              min={WEIGHT.min}
              max={WEIGHT.max}
              step={1}
              placeholder={t('rules.advanced.weight.none')}
              value={a.weight}
              {...invalid('weight')}
              onChange={(e) => {
                live().draft.advanced.weight = e.target.value;
                touched('weight');
              }}
            />
            <span className="field-hint">{t('rules.advanced.weight.hint')}</span>
            {error('weight')}
          </div>
        </div>

        <Checkbox className="check" isSelected={a.exclusive} onChange={(on) => (live().draft.advanced.exclusive = on)} aria-describedby={id('exclusive-hint')}>
          <span className="check-box" aria-hidden="true" />
          {t('rules.advanced.exclusive')}
        </Checkbox>
        <span id={id('exclusive-hint')} className="field-hint">
          {t('rules.advanced.exclusive.hint')}
        </span>

        <fieldset className="rule-fieldset" aria-describedby={errors.filters ? id('filters-error') : undefined}>
          <legend>{t('rules.advanced.filters')}</legend>
          {a.filters.length === 0 ? <p className="field-hint">{t('rules.advanced.filters.none')}</p> : null}
          <ol className="rule-filters">
            {a.filters.map((f, i) => (
              <FilterRow
                key={i}
                index={i}
                filter={f}
                columns={columns}
                invalid={badFilters.includes(i)}
                id={id}
                labelOf={labelOf}
                onChange={(next) => setFilter(i, next)}
                onRemove={() => removeFilter(i)}
              />
            ))}
          </ol>
          <button type="button" id={id('filter-add')} className="btn" onClick={addFilter} aria-disabled={columns.length === 0 || undefined}>
            {t('rules.advanced.filter.add')}
          </button>
          {columns.length === 0 ? <span className="field-hint">{t('rules.advanced.filters.landingsFirst')}</span> : null}
          {error('filters', { filters: badFilters.map((n) => n + 1).join(', ') })}
        </fieldset>
      </div>
    </section>
  );
}

interface RowProps {
  index: number;
  filter: Readonly<Omit<FilterDraft, 'values'>> & { readonly values: readonly string[] };
  columns: readonly FilterColumn[];
  invalid: boolean;
  id: (field: string) => string;
  labelOf: (c: FilterColumn) => string;
  onChange: (next: FilterDraft) => void;
  onRemove: () => void;
}

/** One filter: its column, its operator (those that fit the column's type), its value(s), and Retirer. */
function FilterRow({ index, filter, columns, invalid, id, labelOf, onChange, onRemove }: RowProps) {
  const t = useT();
  const n = index + 1;
  const column = columns.find((c) => c.key === filter.column);
  const kind = column?.kind ?? 'text';
  const base = id(`filter-${index}`);
  const draft = { ...filter, values: [...filter.values] };
  const aria = invalid ? { 'aria-invalid': true as const } : {};
  const input = (key: 'value' | 'min' | 'max', label: string) => (
    <input
      id={`${base}-${key}`}
      aria-label={label}
      type={filter.op === 'age_between' || kind === 'number' ? 'number' : kind === 'date' ? 'date' : 'text'}
      step={filter.op === 'age_between' ? 1 : kind === 'number' ? 'any' : undefined}
      min={filter.op === 'age_between' ? 0 : undefined}
      max={filter.op === 'age_between' ? 150 : undefined}
      value={filter[key]}
      {...aria}
      onChange={(e) => onChange({ ...draft, [key]: e.target.value })}
    />
  );

  let values;
  if (filter.op === 'between' || filter.op === 'age_between') {
    const unit = filter.op === 'age_between' ? 'age' : 'range';
    values = (
      <span className="rule-filter-pair">
        {input('min', t(`rules.advanced.filter.${unit}.min`, { n }))}
        <span aria-hidden="true">–</span>
        {input('max', t(`rules.advanced.filter.${unit}.max`, { n }))}
      </span>
    );
  } else if ((filter.op === 'in' || filter.op === 'not_in') && column?.options) {
    values = (
      <fieldset className="rule-filter-options">
        <legend className="visually-hidden">{t('rules.advanced.filter.values', { n })}</legend>
        {column.options.map((o) => (
          <label key={o} className="rule-filter-option">
            <input
              type="checkbox"
              checked={filter.values.includes(o)}
              onChange={(e) => onChange({ ...draft, values: e.target.checked ? [...draft.values, o] : draft.values.filter((v) => v !== o) })}
            />{' '}
            {o}
          </label>
        ))}
      </fieldset>
    );
  } else if (column?.options && (filter.op === 'eq' || filter.op === 'neq')) {
    values = (
      <select
        id={`${base}-value`}
        aria-label={t('rules.advanced.filter.value', { n })}
        value={filter.value}
        {...aria}
        onChange={(e) => onChange({ ...draft, value: e.target.value })}
      >
        <option value="">{t('rules.advanced.filter.choose')}</option>
        {column.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else {
    values = input('value', t(filter.op === 'in' || filter.op === 'not_in' ? 'rules.advanced.filter.list' : 'rules.advanced.filter.value', { n }));
  }

  return (
    <li className="rule-filter" data-invalid={invalid || undefined}>
      <select
        id={`${base}-column`}
        aria-label={t('rules.advanced.filter.column', { n })}
        value={filter.column}
        onChange={(e) => {
          const next = columns.find((c) => c.key === e.target.value);
          if (next) onChange(withColumn(draft, next));
        }}
      >
        {column ? null : <option value={filter.column}>{filter.column}</option>}
        {columns.map((c) => (
          <option key={c.key} value={c.key}>
            {labelOf(c)}
          </option>
        ))}
      </select>
      <select
        id={`${base}-op`}
        aria-label={t('rules.advanced.filter.op', { n })}
        value={filter.op}
        onChange={(e) => onChange({ ...draft, op: e.target.value as FilterOp, value: '', values: [], min: '', max: '' })}
      >
        {opsOf[kind].map((op) => (
          <option key={op} value={op}>
            {t(`rules.advanced.op.${op}`)}
          </option>
        ))}
      </select>
      {values}
      <button type="button" className="btn" onClick={onRemove} aria-label={t('rules.advanced.filter.remove', { n })}>
        ×
      </button>
    </li>
  );
}
