// Which file column feeds which landing column: matched by name, ignoring accents, case and
// punctuation ("Code postal", "CODE_POSTAL" and "code-postal" all meet "code_postal").
import type { LandingColumn } from '../../../api/landings/contract';
import { trackingFields } from '../../../api/leads/contract';
import { foldText } from '../../../shared/foldText';

export const normalizeName = (s: string) => foldText(s).replace(/[^a-z0-9]+/g, '');

export interface ImportTarget {
  key: string;
  label: string;
  required: boolean;
}

/** The landing's columns, then the tracking fields an import may carry (utm_medium is the source of step 1). */
export function importTargets(columns: readonly LandingColumn[], trackingLabel: (key: string) => string): ImportTarget[] {
  return [
    ...columns.map((c) => ({ key: c.key, label: c.label, required: c.required })),
    ...trackingFields.filter((f) => f !== 'utm_medium').map((f) => ({ key: f, label: trackingLabel(f), required: false })),
  ];
}

/** target key → file header ('' when no column matches). */
export function autoMatch(targets: readonly ImportTarget[], headers: readonly string[]): Record<string, string> {
  const byName = new Map<string, string>();
  for (const h of headers) if (!byName.has(normalizeName(h))) byName.set(normalizeName(h), h);
  return Object.fromEntries(targets.map((t) => [t.key, byName.get(normalizeName(t.key)) ?? byName.get(normalizeName(t.label)) ?? '']));
}

/** The file's columns that feed no landing column: listed, so that none is dropped without a word. */
export function unmappedHeaders(mapping: Record<string, string>, headers: readonly string[]): string[] {
  const used = new Set(Object.values(mapping));
  return headers.filter((h) => h.trim() !== '' && !used.has(h));
}

export interface RowProblem {
  /** 1-based, as the server counts. */
  row: number;
  column: string;
  message: string;
}

/** Required columns left empty, found before anything is sent. */
export function missingRequired(
  targets: readonly ImportTarget[],
  mapping: Record<string, string>,
  headers: readonly string[],
  rows: readonly string[][],
  limit = 200,
): RowProblem[] {
  const problems: RowProblem[] = [];
  const required = targets.filter((t) => t.required).map((t) => ({ t, index: headers.indexOf(mapping[t.key]) }));
  for (let r = 0; r < rows.length && problems.length < limit; r++) {
    for (const { t, index } of required) {
      if (index < 0 || (rows[r][index] ?? '').trim() === '') problems.push({ row: r + 1, column: t.key, message: t.label });
    }
  }
  return problems;
}

/** The request's rows: only the mapped columns, keyed by file header (own properties, whatever the header says). */
export function mappedRows(mapping: Record<string, string>, headers: readonly string[], rows: readonly string[][]): Record<string, string>[] {
  const used = [...new Set(Object.values(mapping).filter(Boolean))].map((h) => [h, headers.indexOf(h)] as const);
  return rows.map((r) => Object.fromEntries(used.map(([h, i]) => [h, r[i] ?? ''])));
}
