import type { Landing } from '../../../src/api/contract/landings';
import { unionColumns } from '../leads/landings';
import type { CellValue } from './cells';

/** A lead as its file shows it: id, date, form values, then département, zone, source and the three utm. */
export type FileRow = [number, string, Record<string, unknown>, ...(string | null)[]];

/** Columns of an export file: identity and date, the form columns, then where the lead came from. */
export function fileColumns(landings: Landing[]) {
  const form = unionColumns(landings);
  return {
    header: ['ID', 'Date', ...form.map((c) => c.label), 'Département', 'Zone climatique', 'Source', 'utm_source', 'utm_medium', 'utm_campaign'],
    row: ([id, created, data, ...origin]: FileRow): CellValue[] => [
      id,
      created,
      ...form.map((c) => {
        const v = Object.prototype.hasOwnProperty.call(data, c.key) ? data[c.key] : null;
        return v === null || v === undefined ? null : typeof v === 'number' ? v : String(v);
      }),
      ...origin,
    ],
  };
}
