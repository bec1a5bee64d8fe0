import type { Writable } from 'node:stream';
import { once } from 'node:events';
import type { BookType } from '../../../src/api/leads/contract';
import { neutralise, type CellValue, type SheetColumn } from './cells';
import { pdfTable, type PdfPages } from './pdf-table';
import { xlsxStream } from './xlsx-stream';

/** Receives the header, then batches of rows, then `end()`; writes one file format into `out`. */
export interface SheetWriter {
  /** Rows it takes per call. */
  readonly batch: number;
  rows(batch: CellValue[][]): Promise<void>;
  end(): Promise<void>;
}

export const contentTypes: Record<BookType, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
};

// Text formats encode a batch in one synchronous pass, whose garbage dies young. xlsx waits for
// its compressor within a batch (pdf for its page stream after it), which keeps the batch alive
// long enough for V8 to move it to the old generation: a 100,000-lead xlsx export peaked at
// 507–532 MB with 2,000 rows per batch, 486–494 with 500 and 440–489 with 250 (1 s slower).
// Smaller batches would cost the csv export half a second.
const TEXT_BATCH = 2000;
const STREAMED_BATCH = 250;

/** Writes with back-pressure: waits for 'drain' when the stream's buffer is full. */
async function write(out: Writable, chunk: string | Buffer) {
  if (!out.write(chunk)) await once(out, 'drain');
}

/**
 * Cells a CSV reader would otherwise split or trim: quotes, line breaks, a BOM, edge spaces, and
 * every separator a reader may guess (a one-column file of 'Dupont, Jean' is otherwise a ','
 * file of two columns to any reader that guesses).
 */
const needsQuotes = /[;,\t|"\r\n\uFEFF]|^ | $/;
const csvCell = (v: CellValue) => {
  const s = String(neutralise(v));
  return needsQuotes.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * CSV for French spreadsheets: UTF-8 with BOM, ';' separators, CRLF, quoted only where needed (RFC 4180).
 * `lines` takes lines already encoded so, as text or as UTF-8 bytes (a lead export's, by the database: csv-sql.ts).
 */
export function csvWriter(out: Writable, header: string[]): SheetWriter & { lines(text: string | Buffer[]): Promise<void> } {
  // Written here rather than by papaparse's unparse, which took a quarter of a 100,000-lead export's JavaScript time.
  const unparse = (rows: CellValue[][]) => rows.map((r) => r.map(csvCell).join(';') + '\r\n').join('');
  let started = false;
  const lines = async (text: string | Buffer[]) => {
    if (!started) {
      started = true;
      await write(out, '\uFEFF' + unparse([header]));
    }
    for (const chunk of typeof text === 'string' ? [text] : text) if (chunk.length) await write(out, chunk);
  };
  return {
    batch: TEXT_BATCH,
    lines,
    rows: (batch) => lines(unparse(batch)),
    end: () => lines(''),
  };
}

/** Tab-separated text; tabs and line breaks inside values become spaces (no quoting in this format). */
function txtWriter(out: Writable, header: string[]): SheetWriter {
  const line = (r: CellValue[]) => r.map((v) => String(neutralise(v)).replace(/[\t\r\n]+/g, ' ')).join('\t');
  let started = false;
  return {
    batch: TEXT_BATCH,
    async rows(batch) {
      if (!started) {
        started = true;
        await write(out, line(header) + '\r\n');
      }
      if (batch.length) await write(out, batch.map(line).join('\r\n') + '\r\n');
    },
    async end() {
      if (!started) await this.rows([]);
    },
  };
}

/** XLSX, streamed (see xlsx-stream.ts): one sheet "Leads", text as inline strings, never a formula. */
function xlsxWriter(out: Writable, columns: SheetColumn[]): SheetWriter {
  let sheet: Awaited<ReturnType<typeof xlsxStream>> | undefined;
  return {
    batch: STREAMED_BATCH,
    async rows(batch) {
      if (!sheet) {
        sheet = await xlsxStream(out, columns);
        await sheet.header();
      }
      if (batch.length) await sheet.rows(batch);
    },
    async end() {
      if (!sheet) await this.rows([]);
      await sheet!.end();
    },
  };
}

/** PDF (A4 landscape): a table with its header row and number on every page (pdf-table.ts). */
function pdfWriter(out: Writable, columns: SheetColumn[], title: string, pages: PdfPages): SheetWriter {
  const table = pdfTable(out, columns, title, pages);
  return { batch: STREAMED_BATCH, rows: async (batch) => (await table).rows(batch), end: async () => (await table).end() };
}

/** `pages`: the pdf's layout (the other formats have no pages). */
export function sheetWriter(type: BookType, out: Writable, columns: SheetColumn[], title: string, pages: PdfPages = {}): SheetWriter {
  const header = columns.map((c) => c.label);
  switch (type) {
    case 'csv':
      return csvWriter(out, header);
    case 'txt':
      return txtWriter(out, header);
    case 'xlsx':
      return xlsxWriter(out, columns);
    case 'pdf':
      return pdfWriter(out, columns, title, pages);
  }
}
