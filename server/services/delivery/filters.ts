import type { LandingColumn } from '../../../src/api/landings/contract';
import { leadFilterColumns, type RuleFilter } from '../../../src/api/rules/contract';
import { own } from '../leads/normalize';

export type { RuleFilter };

/** What filters read of a lead: its form values, where it came from, and its arrival day (Paris, YYYY-MM-DD). */
export interface FilteredLead {
  data: Record<string, unknown>;
  source: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  arrival_day: string;
}

const text = (v: unknown) => String(v).trim().toLowerCase();
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** Whole years from a birth date to a day, both YYYY-MM-DD. */
export function ageOn(birth: string, day: string): number {
  const years = Number(day.slice(0, 4)) - Number(birth.slice(0, 4));
  return day.slice(5) < birth.slice(5) ? years - 1 : years;
}

function fieldOf(
  lead: FilteredLead,
  columns: Pick<LandingColumn, 'key' | 'type'>[],
  column: string,
): { value: string | number | null; type: LandingColumn['type'] } {
  if ((leadFilterColumns as readonly string[]).includes(column)) {
    const v = lead[column as (typeof leadFilterColumns)[number]];
    return { value: v === null || v.trim() === '' ? null : v, type: 'text' };
  }
  const type = columns.find((c) => c.key === column)?.type ?? 'text';
  const raw = own(lead.data, column);
  if (raw === null || raw === undefined || typeof raw === 'object' || String(raw).trim() === '') return { value: null, type };
  if (type === 'number') {
    const n = typeof raw === 'number' ? raw : Number(String(raw).trim().replace(',', '.'));
    return { value: Number.isFinite(n) ? n : null, type };
  }
  if (type === 'date') return { value: isoDay.test(String(raw).trim()) ? String(raw).trim() : null, type };
  return { value: String(raw), type };
}

/** Numbers compare as numbers, dates as their YYYY-MM-DD text. */
const order = (a: string | number, b: string | number, type: LandingColumn['type']) =>
  type === 'date' ? (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0) : Number(a) - Number(b);

/**
 * Whether a lead passes one filter. Text values compare trimmed and case-insensitively; a lead
 * lacking the field fails every operator but `neq` and `not_in`.
 */
export function passesFilter(filter: RuleFilter, lead: FilteredLead, columns: Pick<LandingColumn, 'key' | 'type'>[]): boolean {
  const { value, type } = fieldOf(lead, columns, filter.column);
  const list: ReadonlyArray<string | number> = typeof filter.value === 'object' ? filter.value : [filter.value];
  if (value === null) return filter.op === 'neq' || filter.op === 'not_in';
  switch (filter.op) {
    case 'eq':
      return text(value) === text(filter.value);
    case 'neq':
      return text(value) !== text(filter.value);
    case 'in':
      return list.some((v) => text(v) === text(value));
    case 'not_in':
      return !list.some((v) => text(v) === text(value));
    case 'gte':
      return order(value, filter.value as string | number, type) >= 0;
    case 'lte':
      return order(value, filter.value as string | number, type) <= 0;
    case 'between':
      return order(value, list[0], type) >= 0 && order(value, list[1], type) <= 0;
    case 'age_between': {
      if (type !== 'date') return false;
      const age = ageOn(String(value), lead.arrival_day);
      return age >= Number(list[0]) && age <= Number(list[1]);
    }
  }
}

/** The first of a rule's filters the lead fails, or null when it passes them all. */
export function failingFilter(filters: RuleFilter[], lead: FilteredLead, columns: Pick<LandingColumn, 'key' | 'type'>[]): RuleFilter | null {
  return filters.find((f) => !passesFilter(f, lead, columns)) ?? null;
}
