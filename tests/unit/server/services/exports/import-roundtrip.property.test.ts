import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { neutralise, type CellValue, type SheetColumn } from '../../../../../server/services/exports/cells';
import { sheetWriter } from '../../../../../server/services/exports/writers';
import { cleanHeaders, parseCsv, parseFile, parseXlsx, type ParsedFile } from '../../../../../src/views/leads/import/parseFile';
import { windows1252 } from '../../../../fixtures/ooxml';

// Round trips through the lead import's own parsers (src/views/leads/import/parseFile.ts):
// arbitrary tables written as CSV (three separators, quotes, line breaks in cells, formulas, BOM,
// UTF-8 or Windows-1252) or XLSX read back cell for cell; and the export writers' csv and xlsx
// read back by the same parsers (formula-like cells neutralised in csv, kept as text in xlsx).

const u8 = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** Characters that break naive readers: separators, quotes, line breaks, formula starts, BOM, spaces. */
const tricky = [
  ';',
  ',',
  '\t',
  '|',
  '"',
  "'",
  '\r',
  '\n',
  '\r\n',
  '=',
  '+',
  '-',
  '@',
  ' ',
  '\u00a0',
  '\uFEFF',
  'é',
  'É',
  'œ',
  '€',
  '’',
  '«',
  '»',
  '0',
  '1',
  'a',
  'Z',
];
/** A string that UTF-8 can carry (no lone surrogate). */
const encodable = (s: string) => Buffer.from(s, 'utf8').toString('utf8') === s;
const anyText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...tricky), maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }).filter(encodable),
  fc.tuple(fc.constantFrom('=', '+', '-', '@'), fc.string({ maxLength: 8 })).map(([a, b]) => a + b),
);
/** French text as Windows-1252 holds it (no C1 control characters, which that code page maps to other letters). */
const cp1252Text = fc.string({ unit: fc.constantFrom(...' \t\r\n;,|"\'=+-@azAZ09.àâçéèêëîïôöùûüÿÀÂÇÉÈÊËÎÔÙÛÜŸœŒ€’«»°\u00a0'), maxLength: 12 });

const hasContent = (row: string[]) => row.some((c) => /\S/.test(c));
/** SheetJS reads a cell's CR LF as LF (XML's line ends); Excel itself writes LF alone in a cell. */
const xmlLines = (row: string[]) => row.map((c) => c.replace(/\r\n/g, '\n'));

/** A header row and data rows of the same width; each line has something besides blanks (blank lines are skipped by design). */
const table = (cell: fc.Arbitrary<string>) =>
  fc
    .integer({ min: 1, max: 5 })
    .chain((width) =>
      fc.tuple(
        fc.array(cell, { minLength: width, maxLength: width }).filter(hasContent),
        fc.array(fc.array(cell, { minLength: width, maxLength: width }).filter(hasContent), { minLength: 1, maxLength: 6 }),
      ),
    );

/** RFC 4180 as a careful writer does it: a cell holding any separator, quote, line break or BOM is quoted. */
const csvText = (rows: string[][], sep: string, eol: string) =>
  rows.map((r) => r.map((c) => (/[;,\t|"\r\n\uFEFF]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(sep)).join(eol) + eol;

const expectTable = (file: ParsedFile, header: string[], rows: string[][]) => {
  expect(file.headers).toEqual(cleanHeaders(header));
  expect(file.rows).toEqual(rows);
};

describe('import parsers: what was written is read back', () => {
  it('CSV in UTF-8, with or without BOM, separated by ; , or tab, any line ending', () => {
    fc.assert(
      fc.property(table(anyText), fc.constantFrom(';', ',', '\t'), fc.constantFrom('\r\n', '\n'), fc.boolean(), ([header, rows], sep, eol, bom) => {
        const file = parseCsv(u8(Buffer.from((bom ? '\uFEFF' : '') + csvText([header, ...rows], sep, eol), 'utf8')));
        expect(file.encoding).toBe('utf-8');
        expectTable(file, header, rows);
      }),
      { numRuns: 400 },
    );
  });

  it('CSV in Windows-1252 from French Excel: ; separators, only what needs it quoted', () => {
    // French Excel quotes a cell only for ';', quotes and line breaks: commas (addresses, decimals) stay bare.
    const excelCell = (c: string) => (/[;"\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
    fc.assert(
      fc.property(table(cp1252Text), fc.constantFrom('\r\n', '\n'), ([header, rows], eol) => {
        // 'Prénom' makes the bytes invalid UTF-8, as any French file is.
        const head = ['Prénom', ...header];
        const body = rows.map((r) => ['Zoé', ...r]);
        const text = [head, ...body].map((r) => r.map(excelCell).join(';')).join(eol) + eol;
        const file = parseCsv(u8(windows1252(text)));
        expect(file).toMatchObject({ encoding: 'windows-1252', delimiter: ';' });
        expectTable(file, head, body);
      }),
      { numRuns: 300 },
    );
  });

  it('XLSX written by SheetJS: every text cell as it was, formulas characters included', () => {
    fc.assert(
      fc.property(table(anyText), ([header, rows]) => {
        const book = XLSX.utils.book_new();
        XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([header, ...rows]), 'Feuille 1');
        const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
        const file = parseFile(u8(bytes));
        expect(file.format).toBe('xlsx');
        expectTable(file, xmlLines(header), rows.map(xmlLines));
      }),
      { numRuns: 100 },
    );
  });

  it('XLSX number cells in General format come in with every digit (a 12-digit phone number, a decimal)', () => {
    const number = fc.oneof(
      fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }),
      fc.integer({ min: -(10 ** 9), max: 10 ** 9 }).map((n) => n / 1000),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(number, number), { minLength: 1, maxLength: 5 }), (rows) => {
        const book = XLSX.utils.book_new();
        XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['a', 'b'], ...rows]), 'Feuille 1');
        const file = parseXlsx(u8(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer));
        expect(file.rows).toEqual(rows.map((r) => r.map(String)));
      }),
      { numRuns: 100 },
    );
  });
});

/** Text of leads, including what looks like a spreadsheet's own escapes of control characters. */
const exportText = fc.oneof(
  anyText,
  fc.tuple(anyText, fc.constantFrom('_x0041_', '_x000D_', '_x005F_', '_X00e9_'), anyText).map((p) => p.join('')),
);

/** Values an export writes for a column of each kind. */
const day = fc
  .date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const valueOf: Record<SheetColumn['kind'], fc.Arbitrary<CellValue>> = {
  id: fc.integer({ min: 1, max: 2 ** 31 }),
  number: fc.oneof(
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.integer({ min: -1e8, max: 1e8 }).map((n) => n / 100),
  ),
  date: day,
  datetime: fc.tuple(day, fc.integer({ min: 0, max: 86_399 })).map(([d, s]) => `${d} ${new Date(s * 1000).toISOString().slice(11, 19)}`),
  text: exportText,
  email: exportText,
  phone: fc.stringMatching(/^0[1-9]\d{8}$/),
  postal_code: fc.stringMatching(/^\d{5}$/),
  select: exportText,
  code: fc.stringMatching(/^[0-9A-Z]{1,6}$/),
};
const kinds = Object.keys(valueOf) as SheetColumn['kind'][];

const exportTable = fc
  .array(fc.record({ label: exportText.filter((s) => /\S/.test(s)), kind: fc.constantFrom(...kinds) }), { minLength: 1, maxLength: 6 })
  .chain((columns) =>
    fc.tuple(
      fc.constant(columns),
      // A line of nothing but blanks is no lead: the import skips it, by design.
      fc.array(
        fc.tuple(...columns.map((c) => fc.option(valueOf[c.kind], { nil: null }))).filter((r) => r.some((v) => v !== null && /\S/.test(String(v)))),
        { minLength: 1, maxLength: 6 },
      ),
    ),
  );

async function exported(type: 'csv' | 'xlsx', columns: SheetColumn[], rows: CellValue[][]): Promise<Uint8Array> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const writer = sheetWriter(type, out, columns, 'Leads');
  await writer.rows(rows);
  await writer.end();
  out.end();
  return u8(Buffer.concat(chunks));
}

const text = (v: CellValue) => (v === null ? '' : String(v));

describe('export writers read back by the import', () => {
  it('csv: the same cells, formula-like text prefixed with a quote and nothing else changed', async () => {
    await fc.assert(
      fc.asyncProperty(exportTable, async ([columns, rows]) => {
        const file = parseCsv(await exported('csv', columns, rows));
        expect(file.headers).toEqual(cleanHeaders(columns.map((c) => String(neutralise(c.label)))));
        expect(file.rows).toEqual(rows.map((r) => r.map((v) => String(neutralise(v)))).filter(hasContent));
      }),
      { numRuns: 300 },
    );
  });

  it('xlsx: the same text, formula-like cells included (kept as text by their style), numbers and dates as written', async () => {
    await fc.assert(
      fc.asyncProperty(exportTable, async ([columns, rows]) => {
        const file = parseXlsx(await exported('xlsx', columns, rows));
        expect(file.headers).toEqual(cleanHeaders(xmlLines(columns.map((c) => c.label))));
        expect(file.rows).toEqual(rows.map((r) => xmlLines(r.map(text))).filter((r) => r.some((c) => c !== '')));
      }),
      { numRuns: 100 },
    );
  });
});
