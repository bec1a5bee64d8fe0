import type { Writable } from 'node:stream';
import { isFormulaLike, typicalWidth, type CellValue, type SheetColumn } from './cells';
import { zipStream } from './zip-stream';

// SheetJS builds the whole workbook in memory (over 1 GB for 100,000 leads), so big exports are
// written here as a stream: the minimal SpreadsheetML parts, one sheet of inline strings, zipped
// on the fly. Memory stays flat whatever the number of rows; SheetJS reads the result.

const NS = 'http://schemas.openxmlformats.org/';
const MAIN = `${NS}spreadsheetml/2006/main`;

/** Cell styles (index = the `s` attribute), in xl/styles.xml. */
const STYLE = { text: 0, quoted: 1, datetime: 2, date: 3, header: 4 } as const;
// quotePrefix: the cell shows its text as it is, without a visible apostrophe, and stays text
// when edited — a formula-like value is never run (docs/decisions.md §8). Number formats 22 and 14 are
// the built-in date-time and date, which spreadsheets show in the reader's own locale.
const styles =
  `<styleSheet xmlns="${MAIN}">` +
  `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
  `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
  `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
  `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
  `<cellXfs count="5">` +
  `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
  `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>` +
  `<xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  `<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
  `</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const staticParts: Record<string, string> = {
  '[Content_Types].xml':
    `<Types xmlns="${NS}package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
    `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  '_rels/.rels': `<Relationships xmlns="${NS}package/2006/relationships"><Relationship Id="rId1" Type="${NS}officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  'xl/workbook.xml': `<workbook xmlns="${MAIN}" xmlns:r="${NS}officeDocument/2006/relationships"><sheets><sheet name="Leads" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  'xl/_rels/workbook.xml.rels':
    `<Relationships xmlns="${NS}package/2006/relationships"><Relationship Id="rId1" Type="${NS}officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId2" Type="${NS}officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
  'xl/styles.xml': styles,
};

/** Rows turned into one piece of XML at a time: small pieces keep the garbage young and the peak memory low. */
const PUSH_ROWS = 200;

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/**
 * Text as XML character data. Characters XML 1.0 forbids, and the carriage return its readers
 * turn into a line feed, are written as spreadsheets escape them (`_x000D_`, ST_Xstring); text
 * that looks like such an escape gets its underscore escaped (`_x005F_`), so it reads as written.
 */
const xmlText = (s: string) =>
  s
    .replace(/_x[0-9a-f]{4}_/gi, (m) => `_x005F_${m.slice(1)}`)
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x08\x0B-\x1F\uFFFE\uFFFF]/g, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
/** 'YYYY-MM-DD[ HH:MM:SS]' as a spreadsheet serial day (days since 1899-12-30), or undefined. */
export function serialDay(text: string): number | undefined {
  const m = dateTimePattern.exec(text);
  if (!m) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  return Number.isNaN(ms) ? undefined : ms / 86_400_000 + 25_569;
}

/** Streams rows into an .xlsx file written to `out`: header row frozen and bold, columns sized, dates as dates. */
export async function xlsxStream(out: Writable, columns: SheetColumn[]) {
  const refs = columns.map((_, i) => columnName(i));
  const zip = zipStream(out);
  for (const [name, xml] of Object.entries(staticParts)) await zip.file(name, xmlHead + xml);
  const sheet = await zip.open('xl/worksheets/sheet1.xml');
  const widths = columns
    .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.min(50, Math.max(typicalWidth[c.kind], c.label.length + 2))}" customWidth="1"/>`)
    .join('');
  await sheet.push(
    `${xmlHead}<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0">` +
      `<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/>` +
      `</sheetView></sheetViews><cols>${widths}</cols><sheetData>`,
  );
  let rowNumber = 0;

  const text = (ref: string, s: string, style: number) =>
    `<c r="${ref}" t="inlineStr"${style ? ` s="${style}"` : ''}><is><t xml:space="preserve">${xmlText(s)}</t></is></c>`;
  const cell = (value: string | number, col: number, r: number) => {
    const ref = `${refs[col]}${r}`;
    if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
    const kind = columns[col].kind;
    const day = kind === 'datetime' || kind === 'date' ? serialDay(value) : undefined;
    if (day !== undefined) return `<c r="${ref}" s="${kind === 'datetime' ? STYLE.datetime : STYLE.date}"><v>${day}</v></c>`;
    return text(ref, value, isFormulaLike(value) ? STYLE.quoted : STYLE.text);
  };

  return {
    async header() {
      rowNumber++;
      await sheet.push(`<row r="${rowNumber}">${columns.map((c, col) => text(`${refs[col]}${rowNumber}`, c.label, STYLE.header)).join('')}</row>`);
    },
    async rows(batch: CellValue[][]) {
      for (let start = 0; start < batch.length; start += PUSH_ROWS) {
        let xml = '';
        for (const row of batch.slice(start, start + PUSH_ROWS)) {
          rowNumber++;
          xml += `<row r="${rowNumber}">`;
          row.forEach((v, col) => {
            if (v !== null && v !== '') xml += cell(v, col, rowNumber);
          });
          xml += '</row>';
        }
        await sheet.push(xml);
      }
    },
    async end() {
      await sheet.push('</sheetData></worksheet>');
      await sheet.close();
      await zip.end();
    },
  };
}
