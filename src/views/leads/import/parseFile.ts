// Reads an uploaded CSV or XLSX into a header line and rows of strings. Runs in the import
// worker (parse.worker.ts) so a 100,000-row file never freezes the page.
import Papa from 'papaparse';
import * as XLSX from 'xlsx';
import { decodeText, detectDelimiter, type Encoding } from './decode';
import { checkZip, isZip } from '../../../shared/zipCheck';

export const MAX_ROWS = 200_000;

export interface ParsedFile {
  format: 'csv' | 'xlsx';
  encoding?: Encoding;
  delimiter?: string;
  headers: string[];
  rows: string[][];
}

export type ParseFailure = 'empty' | 'no_rows' | 'too_many_rows' | 'not_zip' | 'too_many_entries' | 'too_big' | 'ratio' | 'unreadable';

export class ParseError extends Error {
  constructor(readonly reason: ParseFailure) {
    super(reason);
  }
}

/** Blank or repeated headers get a name of their own so that every column can be mapped. */
export function cleanHeaders(raw: readonly unknown[]): string[] {
  const seen = new Set<string>();
  return raw.map((h, i) => {
    let name = String(h ?? '').trim() || `#${i + 1}`;
    while (seen.has(name)) name = `${name} (${i + 1})`;
    seen.add(name);
    return name;
  });
}

function finish(format: ParsedFile['format'], table: string[][], extra: Partial<ParsedFile>): ParsedFile {
  const nonEmpty = table.filter((r) => r.some((c) => c !== ''));
  if (nonEmpty.length === 0) throw new ParseError('empty');
  const [head, ...rows] = nonEmpty;
  if (rows.length === 0) throw new ParseError('no_rows');
  if (rows.length > MAX_ROWS) throw new ParseError('too_many_rows');
  return { format, headers: cleanHeaders(head), rows, ...extra };
}

export function parseCsv(bytes: Uint8Array, onProgress?: (done: number) => void): ParsedFile {
  const { text, encoding } = decodeText(bytes);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const delimiter = detectDelimiter(body);
  const table: string[][] = [];
  let lastReport = 0;
  Papa.parse<string[]>(body, {
    delimiter,
    skipEmptyLines: 'greedy',
    step: (result) => {
      table.push(result.data);
      const at = result.meta.cursor;
      if (onProgress && at - lastReport > 1_000_000) {
        lastReport = at;
        onProgress(at / body.length);
      }
    },
  });
  return finish('csv', table, { encoding, delimiter });
}

/**
 * A date cell as the server reads it: 'YYYY-MM-DD', with ' HH:MM:SS' when its format shows a time.
 * Spreadsheets store dates as serial days, and SheetJS would show them in its default m/d/yy,
 * which a French reader takes for d/m/yy.
 */
function serialDate(serial: number, date1904: boolean, withTime: boolean): string | undefined {
  const day = new Date(Math.round((serial - (date1904 ? 24_107 : 25_569)) * 86_400) * 1000);
  if (Number.isNaN(day.getTime())) return undefined;
  const iso = day.toISOString();
  return withTime ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.slice(0, 10);
}

/**
 * The text a cell shows (a number formatted 00000 keeps its zeros), dates in ISO form, and a number
 * in the General format with all its digits (SheetJS would show a 12-digit phone number as 1E+11),
 * to the 15 significant digits a spreadsheet keeps.
 */
function cellText(cell: XLSX.CellObject | undefined, date1904: boolean): string {
  if (!cell || cell.v === undefined || cell.v === null) return '';
  if (cell.t === 'n' && (cell.z === undefined || cell.z === 'General')) return String(Number((cell.v as number).toPrecision(15)));
  if (cell.t === 'n' && typeof cell.z === 'string' && XLSX.SSF.is_date(cell.z)) {
    // Hours or seconds in the format, quoted text and [colour] or [$-locale] parts aside.
    const withTime = /[hs]/i.test(cell.z.replace(/"[^"]*"|\[[^\]]*\]/g, ''));
    const date = serialDate(cell.v as number, date1904, withTime);
    if (date) return date;
  }
  return cell.w ?? String(cell.v);
}

export function parseXlsx(bytes: Uint8Array): ParsedFile {
  const verdict = checkZip(bytes);
  if (!verdict.ok) throw new ParseError(verdict.reason);
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'array', dense: true, cellFormula: false, cellHTML: false, cellText: true, cellNF: true, cellDates: false, sheets: 0 });
  } catch {
    throw new ParseError('unreadable');
  }
  const sheet = book.Sheets[book.SheetNames[0]];
  if (!sheet) throw new ParseError('empty');
  const date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  const range = XLSX.utils.decode_range(sheet['!ref'] ?? 'A1:A1');
  const cells = (sheet['!data'] ?? []) as (XLSX.CellObject | undefined)[][];
  const table: string[][] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: string[] = [];
    for (let c = range.s.c; c <= range.e.c; c++) row.push(cellText(cells[r]?.[c], date1904));
    table.push(row);
  }
  return finish('xlsx', table, {});
}

export function parseFile(bytes: Uint8Array, onProgress?: (done: number) => void): ParsedFile {
  return isZip(bytes) ? parseXlsx(bytes) : parseCsv(bytes, onProgress);
}
