// The rule form's 'Avancé' section as data: caps per window, priority, weight, filters built from the
// chosen landings' columns, exclusivity. Pure, unit-tested (tests/unit/rules-advanced.test.ts).
import type { LandingColumn } from '../../api/landings/contract';
import { capWindows, leadFilterColumns, type CapWindow, type FilterOp, type Rule, type RuleCaps, type RuleFilter } from '../../api/rules/contract';
import { filterErrors, kindOf, opsOf, type FilterKind } from '../../api/rules/filters';

/** A filter as the form edits it: every value as typed; which ones count depends on the operator. */
export interface FilterDraft {
  column: string;
  op: FilterOp;
  /** eq, neq, gte, lte; in / not_in on a text column: values separated by commas. */
  value: string;
  /** in / not_in on a select column: the options ticked. */
  values: string[];
  /** between, age_between. */
  min: string;
  max: string;
}

/** The advanced fields of a rule as typed ('' : no cap, no weight). */
export interface AdvancedDraft {
  caps: Record<CapWindow, string>;
  priority: string;
  weight: string;
  filters: FilterDraft[];
  exclusive: boolean;
}

export const CAP = { min: 1, max: 1_000_000 } as const;
export const PRIORITY = { min: 1, max: 9, default: 5 } as const;
export const WEIGHT = { min: 1, max: 10_000 } as const;

export const advancedDefaults = (): AdvancedDraft => ({
  caps: { hour: '', week: '', month: '' },
  priority: String(PRIORITY.default),
  weight: '',
  filters: [],
  exclusive: true,
});

const valueText = (v: string | number) => String(v);

function filterDraftOf(f: RuleFilter): FilterDraft {
  const draft: FilterDraft = { column: f.column, op: f.op, value: '', values: [], min: '', max: '' };
  if (Array.isArray(f.value) && (f.op === 'in' || f.op === 'not_in')) return { ...draft, value: f.value.join(', '), values: f.value.map(valueText) };
  if (Array.isArray(f.value)) return { ...draft, min: valueText(f.value[0]), max: valueText(f.value[1]) };
  return { ...draft, value: valueText(f.value) };
}

/** A rule's advanced fields as the form edits them. */
export const advancedOf = (rule: Pick<Rule, 'caps' | 'priority' | 'weight' | 'filters' | 'exclusive'>): AdvancedDraft => ({
  caps: Object.fromEntries(capWindows.map((w) => [w, rule.caps[w] === null ? '' : String(rule.caps[w])])) as Record<CapWindow, string>,
  priority: String(rule.priority),
  weight: rule.weight === null ? '' : String(rule.weight),
  filters: rule.filters.map(filterDraftOf),
  exclusive: rule.exclusive,
});

/** Whether the section holds anything but the defaults: an edited rule opens it then. */
export const advancedUsed = (a: AdvancedDraft) => JSON.stringify(a) !== JSON.stringify(advancedDefaults());

/** A column a filter may name, as the form offers it. */
export interface FilterColumn {
  key: string;
  /** The landing's label; the lead columns' are i18n ids (`rules.advanced.column.source`…). */
  label: string;
  kind: FilterKind;
  /** A select column's choices. */
  options?: string[];
}

type LandingWithColumns = { id: number; name: string; columns: readonly LandingColumn[] };

/**
 * The columns a filter may name on every chosen landing: the form columns they all have, of the
 * same kind (text, number, date; a select's choices those of the first landing), then the
 * lead's source and UTM columns. None until a landing is chosen.
 */
export function filterColumns(landings: readonly LandingWithColumns[], chosen: readonly number[]): FilterColumn[] {
  const picked = chosen.map((id) => landings.find((l) => l.id === id)).filter((l): l is LandingWithColumns => Boolean(l));
  if (picked.length === 0) return [];
  const [first, ...rest] = picked;
  const shared = first.columns.filter(
    (c) =>
      !(leadFilterColumns as readonly string[]).includes(c.key) &&
      rest.every((l) => l.columns.some((o) => o.key === c.key && kindOf(o.type) === kindOf(c.type))),
  );
  const own: FilterColumn[] = shared.map((c) => ({
    key: c.key,
    label: c.label,
    kind: kindOf(c.type),
    ...(c.type === 'select' && c.options?.length ? { options: [...c.options] } : {}),
  }));
  return [...own, ...leadFilterColumns.map((key) => ({ key, label: `rules.advanced.column.${key}`, kind: 'text' as const }))];
}

/** A new filter on a column: its kind's first operator, nothing typed. */
export const newFilter = (column: FilterColumn): FilterDraft => ({ column: column.key, op: opsOf[column.kind][0], value: '', values: [], min: '', max: '' });

/** Changing a filter's column keeps its operator when it still fits, and clears the values. */
export function withColumn(filter: FilterDraft, column: FilterColumn): FilterDraft {
  const op = opsOf[column.kind].includes(filter.op) ? filter.op : opsOf[column.kind][0];
  return { ...newFilter(column), op };
}

/** A number as typed in French or English ('12,5' or '12.5'), or the text itself when it is none (the check refuses it). */
const numberOrText = (text: string): string | number => {
  const t = text.trim().replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : text.trim();
};

/** One filter as the API takes it, or null when a value is missing. */
export function filterPayload(f: FilterDraft, column: FilterColumn | undefined): RuleFilter | null {
  const kind = column?.kind ?? 'text';
  const scalar = (text: string) => (kind === 'number' || f.op === 'age_between' ? numberOrText(text) : text.trim());
  switch (f.op) {
    case 'in':
    case 'not_in': {
      const values = column?.options ? f.values : f.value.split(',').map((v) => v.trim());
      const kept = values.filter(Boolean);
      return kept.length ? { column: f.column, op: f.op, value: kept } : null;
    }
    case 'between':
    case 'age_between':
      return f.min.trim() && f.max.trim() ? { column: f.column, op: f.op, value: [scalar(f.min), scalar(f.max)] } : null;
    default:
      return f.value.trim() ? { column: f.column, op: f.op, value: scalar(f.value) } : null;
  }
}

export type AdvancedField = 'cap_hour' | 'cap_week' | 'cap_month' | 'priority' | 'weight' | 'filters';

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);
const within = (n: number, range: { min: number; max: number }) => n >= range.min && n <= range.max;

/**
 * Checks the advanced fields as the server will: the refused fields (i18n ids), the filters
 * refused (indexes), and the payload's part. `landings` (with their columns) lets the form refuse a
 * filter that does not fit one of them; without it the server judges.
 */
export function checkAdvanced(
  a: AdvancedDraft,
  columns: readonly FilterColumn[],
  landings: readonly LandingWithColumns[] = [],
): {
  errors: Partial<Record<AdvancedField, string>>;
  badFilters: number[];
  payload: { caps: RuleCaps; priority: number; weight: number | null; filters: RuleFilter[]; exclusive: boolean };
} {
  const errors: Partial<Record<AdvancedField, string>> = {};
  const caps = {} as RuleCaps;
  for (const w of capWindows) {
    const typed = a.caps[w].trim();
    caps[w] = typed === '' ? null : whole(typed);
    if (caps[w] !== null && !within(caps[w], CAP)) errors[`cap_${w}`] = 'rules.form.error.cap';
  }
  const priority = whole(a.priority);
  if (!within(priority, PRIORITY)) errors.priority = 'rules.form.error.priority';
  const weight = a.weight.trim() === '' ? null : whole(a.weight);
  if (weight !== null && !within(weight, WEIGHT)) errors.weight = 'rules.form.error.weight';
  const filters: RuleFilter[] = [];
  const badFilters: number[] = [];
  a.filters.forEach((f, i) => {
    const payload = filterPayload(
      f,
      columns.find((c) => c.key === f.column),
    );
    if (!payload || Object.keys(filterErrors([payload], landings)).length) badFilters.push(i);
    else filters.push(payload);
  });
  if (badFilters.length) errors.filters = 'rules.form.error.filters';
  return { errors, badFilters, payload: { caps, priority, weight, filters, exclusive: a.exclusive } };
}

/** Server errors of the advanced fields ('caps.hour', 'filters.2.value'…) on the form's fields, and the filters named. */
export function advancedServerErrors(errors: Readonly<Record<string, string>>): { errors: Partial<Record<AdvancedField, string>>; badFilters: number[] } {
  const out: Partial<Record<AdvancedField, string>> = {};
  const badFilters = new Set<number>();
  for (const path of Object.keys(errors)) {
    const [head, second] = path.split('.');
    if (head === 'caps' && (capWindows as readonly string[]).includes(second)) out[`cap_${second as CapWindow}`] = 'rules.form.error.cap';
    else if (head === 'priority') out.priority = 'rules.form.error.priority';
    else if (head === 'weight') out.weight = 'rules.form.error.weight';
    else if (head === 'filters') {
      out.filters = 'rules.form.error.filters';
      if (/^\d+$/.test(second ?? '')) badFilters.add(Number(second));
    }
  }
  return { errors: out, badFilters: [...badFilters].sort((x, y) => x - y) };
}

/** A cap of a longer window below a shorter one's: accepted (it binds first), but the form says so. */
export function capWarnings(caps: Readonly<Record<CapWindow, string>>, leadsPerDay: string): ('week' | 'month')[] {
  const day = whole(leadsPerDay);
  const week = whole(caps.week);
  const month = whole(caps.month);
  const out: ('week' | 'month')[] = [];
  if (week < day) out.push('week');
  if (month < day || month < week) out.push('month');
  return out;
}
