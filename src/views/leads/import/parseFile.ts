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

export function parseXlsx(bytes: Uint8Array): ParsedFile {
  const verdict = checkZip(bytes);
  if (!verdict.ok) throw new ParseError(verdict.reason);
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'array', dense: true, cellFormula: false, cellHTML: false, cellText: true, cellDates: true, sheets: 0 });
  } catch {
    throw new ParseError('unreadable');
  }
  const sheet = book.Sheets[book.SheetNames[0]];
  if (!sheet) throw new ParseError('empty');
  const table = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: false, dateNF: 'yyyy-mm-dd' });
  return finish('xlsx', table.map((r) => r.map((c) => String(c ?? ''))), {});
}

export function parseFile(bytes: Uint8Array, onProgress?: (done: number) => void): ParsedFile {
  return isZip(bytes) ? parseXlsx(bytes) : parseCsv(bytes, onProgress);
}
