import { once } from 'node:events';
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { typicalWidth, type CellValue, type SheetColumn } from './cells';
import { pdfFont } from './pdf-font';

// A pdf is read, not edited: values are shown as they are (no neutralising quote), in a table of
// A4 landscape pages, each with the header row and its number. 8-point type, down to 6.5 points
// when a landing has many columns; a cell wraps onto as many lines as it needs, up to twelve
// (a 5,000-character note would otherwise fill pages), beyond which it ends with an ellipsis.
const MARGIN = 28;
const MAX_FONT = 8;
const MIN_FONT = 6.5;
const PAD = 3;
const MAX_LINES = 12;
const FOOTER = 14;
const HEADER_FILL = '#e6ebf2';
const ZEBRA_FILL = '#f5f7fa';
const RULE = '#c8d0dc';

/** Control characters would print as boxes or break lines the layout did not plan for. */
// eslint-disable-next-line no-control-regex
const printable = (v: CellValue) => (v === null ? '' : String(v).replace(/[\x00-\x1F\x7F]+/g, ' ').trim());

/** Dates read the French way: '2026-11-25 14:12:40' → '25/11/2026 14:12'. */
const frenchDate = (v: string) => v.replace(/^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}:\d{2}):\d{2})?$/, (_, y, m, d, t) => `${d}/${m}/${y}${t ? ` ${t}` : ''}`);

/** A value each kind of column shows whole, never broken: its column is at least that wide. */
const unbroken: Partial<Record<SheetColumn['kind'], string>> = {
  id: '0000000',
  datetime: '00/00/0000 00:00',
  date: '00/00/0000',
  phone: '0000000000',
  postal_code: '00000',
  number: '000000',
  code: 'H1a',
};

/** Labels wrap at spaces only: 'utm_campaign' reads as 'utm campaign' so it may wrap too. */
const headerLabel = (label: string) => label.replace(/_/g, ' ');

/** `title`: the file's name, shown without its extension at the top of every page. */
export function pdfTable(out: Writable, columns: SheetColumn[], filename: string) {
  const title = filename.replace(/\.pdf$/i, '');
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN, autoFirstPage: false, info: { Title: title } });
  doc.pipe(out, { end: false });
  doc.registerFont('regular', pdfFont(400)).registerFont('bold', pdfFont(700));

  const left = MARGIN;
  let widths: number[] = [];
  let bottom = 0;
  let y = 0;
  let page = 0;
  let lineHeight = 0;
  let fontSize = MAX_FONT;

  /** Lines a text takes in its column: one when it fits (most cells, measured cheaply), else as laid out. */
  const linesOf = (text: string, col: number) => {
    const width = widths[col] - 2 * PAD;
    if (doc.widthOfString(text) <= width) return 1;
    return Math.min(MAX_LINES, Math.round(doc.heightOfString(text, { width }) / lineHeight));
  };

  /** Lines of the tallest cell of a row, in the current font. */
  const rowLines = (texts: string[]) => Math.max(...texts.map((t, col) => linesOf(t, col)));

  const drawRow = (texts: string[], lines: number, fill?: string) => {
    const height = lines * lineHeight + 2 * PAD;
    if (fill) doc.rect(left, y, widths.reduce((a, b) => a + b, 0), height).fill(fill);
    doc.fillColor('#1a1f29');
    let x = left;
    texts.forEach((text, col) => {
      if (text) doc.text(text, x + PAD, y + PAD, { width: widths[col] - 2 * PAD, height: lines * lineHeight, ellipsis: true });
      x += widths[col];
    });
    y += height;
    doc.moveTo(left, y).lineTo(x, y).lineWidth(0.5).strokeColor(RULE).stroke();
  };

  /**
   * Every column is at least as wide as the longest word of its label (a header never breaks
   * inside a word) and as the values of its kind that must not break (a phone number, a date);
   * what is left of the page goes to the free-text columns by the typical width of their values. When those
   * least widths would take more than 85 % of the page, the type shrinks (down to MIN_FONT), then,
   * if still too wide, all columns shrink alike.
   */
  const layout = () => {
    const usable = doc.page.width - 2 * MARGIN;
    const leastAt = (size: number) =>
      columns.map((c) => {
        doc.font('bold').fontSize(size);
        const label = Math.max(...headerLabel(c.label).split(/\s+/).map((w) => doc.widthOfString(w)));
        doc.font('regular').fontSize(size);
        return Math.max(label, doc.widthOfString(unbroken[c.kind] ?? '000000')) + 2 * PAD;
      });
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    fontSize = Math.max(MIN_FONT, Math.min(MAX_FONT, (MAX_FONT * usable * 0.85) / sum(leastAt(MAX_FONT))));
    const least = leastAt(fontSize);
    const spare = usable - sum(least);
    if (spare <= 0) return least.map((w) => (w * usable) / (usable - spare));
    // Only columns of free text wrap: the others are already as wide as their values.
    const weights = columns.map((c) => (unbroken[c.kind] === undefined ? typicalWidth[c.kind] : 0));
    const total = sum(weights) || 1;
    return least.map((w, i) => w + (spare * weights[i]) / total);
  };

  const newPage = () => {
    doc.addPage();
    page++;
    if (page === 1) {
      widths = layout();
      doc.font('regular').fontSize(fontSize);
      lineHeight = doc.currentLineHeight(true);
    }
    bottom = doc.page.height - MARGIN - FOOTER;
    doc.font('bold').fontSize(11).fillColor('#1a1f29').text(title, left, MARGIN, { lineBreak: false });
    y = MARGIN + 18;
    doc.font('regular').fontSize(MAX_FONT).fillColor('#5b6573');
    doc.text(`Page ${page}`, left, doc.page.height - MARGIN - FOOTER + 4, { width: doc.page.width - 2 * MARGIN, align: 'right', lineBreak: false });
    const labels = columns.map((c) => headerLabel(c.label));
    doc.font('bold').fontSize(fontSize);
    drawRow(labels, rowLines(labels), HEADER_FILL);
    doc.font('regular').fontSize(fontSize);
  };

  let rowIndex = 0;
  return {
    async rows(batch: CellValue[][]) {
      if (page === 0) newPage();
      for (const row of batch) {
        const texts = row.map((v, col) => {
          const text = printable(v);
          return columns[col].kind === 'datetime' || columns[col].kind === 'date' ? frenchDate(text) : text;
        });
        const lines = rowLines(texts);
        if (y + lines * lineHeight + 2 * PAD > bottom) newPage();
        drawRow(texts, lines, rowIndex++ % 2 ? ZEBRA_FILL : undefined);
      }
      // Lets the piped file stream flush between batches.
      await new Promise((resolve) => setImmediate(resolve));
    },
    async end() {
      if (page === 0) newPage();
      const ended = once(doc, 'end');
      doc.end();
      await ended;
    },
  };
}
