import type { Writable } from 'node:stream';
import { neutralise, type CellValue } from './cells';
import { zipStream } from './zip-stream';

// SheetJS builds the whole workbook in memory (over 1 GB for 100,000 leads), so big exports are
// written here as a stream: the minimal SpreadsheetML parts, one sheet of inline strings, zipped
// on the fly. Memory stays flat whatever the number of rows; SheetJS reads the result.

const NS = 'http://schemas.openxmlformats.org/';
const staticParts: Record<string, string> = {
  '[Content_Types].xml':
    `<Types xmlns="${NS}package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    `<Default Extension="xml" ContentType="application/xml"/>` +
    `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
    `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  '_rels/.rels': `<Relationships xmlns="${NS}package/2006/relationships"><Relationship Id="rId1" Type="${NS}officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  'xl/workbook.xml': `<workbook xmlns="${NS}spreadsheetml/2006/main" xmlns:r="${NS}officeDocument/2006/relationships"><sheets><sheet name="Leads" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  'xl/_rels/workbook.xml.rels': `<Relationships xmlns="${NS}package/2006/relationships"><Relationship Id="rId1" Type="${NS}officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
};

/** Rows turned into one piece of XML at a time: small pieces keep the garbage young and the peak memory low. */
const PUSH_ROWS = 200;

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Text as XML character data: escaped, and without the control characters XML 1.0 forbids. */
const xmlText = (s: string) =>
  s
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Streams rows into an .xlsx file written to `out`, formula-like text neutralised. */
export async function xlsxStream(out: Writable, width: number) {
  const columns = Array.from({ length: width }, (_, i) => columnName(i));
  const zip = zipStream(out);
  for (const [name, xml] of Object.entries(staticParts)) await zip.file(name, xmlHead + xml);
  const sheet = await zip.open('xl/worksheets/sheet1.xml');
  await sheet.push(`${xmlHead}<worksheet xmlns="${NS}spreadsheetml/2006/main"><sheetData>`);
  let rowNumber = 0;

  const cell = (value: string | number, col: number, r: number) => {
    const v = neutralise(value);
    return typeof v === 'number'
      ? `<c r="${columns[col]}${r}"><v>${v}</v></c>`
      : `<c r="${columns[col]}${r}" t="inlineStr"><is><t xml:space="preserve">${xmlText(v)}</t></is></c>`;
  };

  return {
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
