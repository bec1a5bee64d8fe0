// Which filters fit which columns (docs/api.md, rule filters): shared by the server, which refuses a
// rule whose filter does not fit one of its landings (422 naming `filters.N`), and by the rule form,
// which offers only the operators and values that fit.
import type { ColumnType, LandingColumn } from '../landings/contract';
import { leadFilterColumns, type FilterOp, type RuleFilter } from './contract';

/** How a column is compared: as trimmed, case-folded text, as a number, or as a date. */
export type FilterKind = 'text' | 'number' | 'date';

export const kindOf = (type: ColumnType): FilterKind => (type === 'number' ? 'number' : type === 'date' ? 'date' : 'text');

/** The operators each kind of column takes, in the order the form offers them. */
export const opsOf: Record<FilterKind, readonly FilterOp[]> = {
  text: ['eq', 'neq', 'in', 'not_in'],
  number: ['gte', 'lte', 'between'],
  date: ['gte', 'lte', 'between', 'age_between'],
};

/** A column a filter may name on a landing: its form columns, then the lead's source and UTM columns (text). */
export function filterColumnOf(columns: readonly LandingColumn[], key: string): Pick<LandingColumn, 'key' | 'type' | 'options'> | undefined {
  const own = columns.find((c) => c.key === key);
  if (own) return own;
  return (leadFilterColumns as readonly string[]).includes(key) ? { key, type: 'text' } : undefined;
}

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (v: unknown) => typeof v === 'string' && isoDay.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isYears = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 150;
const fold = (v: unknown) => String(v).trim().toLowerCase();

/**
 * What is wrong with a filter on one landing's columns (a French sentence naming the landing), or
 * null when it fits: the column exists there, the operator fits its type, the values have the
 * type's form (JSON numbers; YYYY-MM-DD days; whole years 0–150 for ages), a pair is ordered, and a
 * select column's values are among its options.
 */
export function filterProblem(filter: RuleFilter, landing: { name: string; columns: readonly LandingColumn[] }): string | null {
  const column = filterColumnOf(landing.columns, filter.column);
  if (!column) return `La landing « ${landing.name} » n'a pas de colonne « ${filter.column} »`;
  const kind = kindOf(column.type);
  if (!opsOf[kind].includes(filter.op)) {
    const fits = opsOf[kind].join(', ');
    return `L'opérateur ${filter.op} ne s'applique pas à la colonne « ${filter.column} » (${kind === 'text' ? 'texte' : kind === 'number' ? 'nombre' : 'date'} sur la landing « ${landing.name} »), qui prend ${fits}`;
  }
  const values = Array.isArray(filter.value) ? filter.value : [filter.value];
  if (filter.op === 'age_between') {
    if (!values.every(isYears)) return 'Âges en années entières entre 0 et 150';
  } else if (kind === 'number') {
    if (!values.every(isNumber)) return `Nombre attendu pour la colonne « ${filter.column} »`;
  } else if (kind === 'date') {
    if (!values.every(isDay)) return `Date AAAA-MM-JJ attendue pour la colonne « ${filter.column} »`;
  } else if (column.type === 'select' && column.options?.length) {
    const options = new Set(column.options.map(fold));
    const unknown = values.filter((v) => !options.has(fold(v)));
    if (unknown.length) return `Valeur hors des choix de « ${filter.column} » sur la landing « ${landing.name} » (${unknown.join(', ')})`;
  }
  if (filter.op === 'between' || filter.op === 'age_between') {
    const [min, max] = values;
    const ordered = kind === 'date' && filter.op === 'between' ? String(min) <= String(max) : Number(min) <= Number(max);
    if (!ordered) return 'Intervalle inversé, le minimum passe avant le maximum';
  }
  return null;
}

/** Each filter that does not fit one of the landings, as 422 errors: `{ 'filters.0': 'Filtre 1 — …' }`. */
export function filterErrors(filters: readonly RuleFilter[], landings: readonly { name: string; columns: readonly LandingColumn[] }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  filters.forEach((filter, i) => {
    for (const landing of landings) {
      const problem = filterProblem(filter, landing);
      if (problem) {
        errors[`filters.${i}`] = `Filtre ${i + 1} — ${problem}`;
        break;
      }
    }
  });
  return errors;
}
