import { fixedColumns, type FixedColumn, type LeadKey } from '../../../src/api/leads/contract';
import type { ColumnType, Landing } from '../../../src/api/landings/contract';
import { validationFailed } from '../../errors';
import { unionColumns } from './landings';
import { Params } from '../../db/params';

/** SQL type of a column expression, for casts of cursor values and date filters. */
type SqlType = 'bigint' | 'timestamptz' | 'text' | 'numeric' | 'date';

export interface ResolvedColumn {
  key: string;
  /** Expression over the `l` alias of leads, possibly null. */
  expr: string;
  /** Non-null expression used for sorting and keyset paging. */
  sortExpr: string;
  type: SqlType;
}

const fixedSql: Record<FixedColumn, { expr: string; type: SqlType; key: Omit<LeadKey, 'key' | 'label' | 'fixed'> }> = {
  id: { expr: 'l.id', type: 'bigint', key: { type: 'id', hidden: false, filter: 'number' } },
  created_at: { expr: 'l.created_at', type: 'timestamptz', key: { type: 'datetime', hidden: false, filter: 'date' } },
  updated_at: { expr: 'l.updated_at', type: 'timestamptz', key: { type: 'datetime', hidden: false, filter: 'date' } },
  landing: { expr: 'l.landing_id', type: 'bigint', key: { type: 'id', hidden: false, filter: 'values' } },
  entry_status: { expr: 'l.entry_status', type: 'text', key: { type: 'status', hidden: false, filter: 'values' } },
  source: { expr: 'l.source', type: 'text', key: { type: 'source', hidden: false, filter: 'values' } },
  utm_source: { expr: 'l.utm_source', type: 'text', key: { type: 'text', hidden: false, filter: 'text' } },
  utm_medium: { expr: 'l.utm_medium', type: 'text', key: { type: 'text', hidden: false, filter: 'text' } },
  utm_campaign: { expr: 'l.utm_campaign', type: 'text', key: { type: 'text', hidden: false, filter: 'text' } },
  url_presale: { expr: 'l.url_presale', type: 'text', key: { type: 'text', hidden: false, filter: 'text' } },
  visitor: { expr: 'l.visitor', type: 'text', key: { type: 'text', hidden: false, filter: 'text' } },
  departement: { expr: 'l.departement', type: 'text', key: { type: 'text', hidden: false, filter: 'values' } },
  zone_climatique: { expr: 'l.zone_climatique', type: 'text', key: { type: 'text', hidden: false, filter: 'values' } },
  sold_to: { expr: 'l.sold_to', type: 'text', key: { type: 'text', hidden: false, filter: 'text' } },
  convert: { expr: 'l.convert', type: 'bigint', key: { type: 'id', hidden: false, filter: 'number' } },
  rapport_id: { expr: 'l.rapport_id', type: 'bigint', key: { type: 'id', hidden: true, filter: 'number' } },
};

const fixedSet = new Set<string>(fixedColumns);
export const isFixedColumn = (key: string): key is FixedColumn => fixedSet.has(key);

const notNull: Record<SqlType, string> = {
  bigint: '0',
  timestamptz: "'-infinity'::timestamptz",
  text: "''",
  numeric: '-1e30',
  date: "''",
};

/** The visible columns of a selection of landings: the fixed ones, then the union of form columns. */
export function leadKeys(landings: Landing[]): LeadKey[] {
  const fixed = fixedColumns.map((key) => ({ key, label: null, fixed: true, ...fixedSql[key].key }));
  const form = unionColumns(landings)
    .filter((c) => !isFixedColumn(c.key))
    .map((c) => ({
      key: c.key,
      label: c.label,
      type: c.type,
      fixed: false,
      hidden: false,
      filter: c.type === 'date' ? ('date' as const) : c.type === 'select' ? ('values' as const) : c.type === 'number' ? ('number' as const) : ('text' as const),
      ...(c.options ? { options: c.options } : {}),
    }));
  return [...fixed, ...form];
}

export const unknownColumn = (field: string, key: string) => validationFailed({ [field]: `Colonne inconnue : ${key}` }, `Colonne inconnue : ${key}`);

/**
 * The SQL type of a column named by a filter or sort, or 422 naming it. Binds nothing: a filter
 * that turns out empty must not leave an unused parameter, whose type PostgreSQL cannot infer.
 */
export function columnSqlType(landings: Landing[], key: string, field: string): SqlType {
  if (isFixedColumn(key)) return fixedSql[key].type;
  const column = unionColumns(landings).find((c) => c.key === key);
  if (!column) throw unknownColumn(field, key);
  return column.type === 'number' ? 'numeric' : column.type === 'date' ? 'date' : 'text';
}

/** The form type of a column in the landings that have it, when they agree on it. */
export function formTypeOf(landings: Landing[], key: string): ColumnType | undefined {
  const types = new Set(landings.flatMap((l) => l.columns.filter((c) => c.key === key).map((c) => c.type)));
  return types.size === 1 ? [...types][0] : undefined;
}

/**
 * The form type of `key` when it is the only column of that type on every one of `landings`: a
 * value that deriveFields copies (a landing's first phone and email) and lead_persons holds (those
 * and the first postal code) is then that column's value, as the form stored it.
 */
export function soleColumnType(landings: Landing[], key: string): ColumnType | undefined {
  const type = formTypeOf(landings, key);
  const sole = (l: Landing) => l.columns.filter((c) => c.type === type).length === 1 && l.columns.some((c) => c.key === key);
  return type && landings.length > 0 && landings.every(sole) ? type : undefined;
}

/** Resolves a column name of a filter or sort into SQL (a form column's key bound as a parameter), or answers 422 naming it. */
export function resolveColumn(landings: Landing[], key: string, params: Params, field: string): ResolvedColumn {
  const type = columnSqlType(landings, key, field);
  if (isFixedColumn(key)) {
    const { expr } = fixedSql[key];
    const sortExpr = expr === 'l.convert' || expr === 'l.rapport_id' || type === 'text' ? `COALESCE(${expr}, ${notNull[type]})` : expr;
    return { key, expr, sortExpr, type };
  }
  const expr = `(l.data->>${params.add(key)})`;
  if (type === 'numeric') {
    const num = `CASE WHEN ${expr} ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ${expr}::numeric END`;
    return { key, expr, sortExpr: `COALESCE(${num}, ${notNull.numeric})`, type };
  }
  return { key, expr, sortExpr: `COALESCE(${expr}, '')`, type };
}
