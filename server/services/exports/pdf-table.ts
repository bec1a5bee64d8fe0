import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { type CellValue, type SheetColumn } from './cells';
import { pdfFont } from './pdf-font';

// A pdf is read, not edited: values are shown as they are (no neutralising quote), in a table of
// A4 landscape pages, each with the header row and its number. 8-point type, down to 6.5 points
// when a landing has many columns; a cell wraps onto as many lines as it needs, up to twelve
// (a 5,000-character note would otherwise fill pages), beyond which it ends with an ellipsis.
// Columns are sized by their values (those of the first rows), and a value too long for its
// column breaks at spaces, then where an address or a code parts itself (after '-' and '_',
// before '@' and '.'), and only then anywhere: pdfkit's own wrapping cut emails mid-word.
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
const controls = /[\x00-\x1F\x7F]+/g;
const printable = (v: CellValue) => (v === null ? '' : String(v).replace(controls, ' ').trim());

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

/** Where a word too long for its column may break: after '-' and '_', before '@' and '.'. */
const WORD_PARTS = /(?<=[-_])|(?=[@.])/;
/** Characters of a value's word that its column shows unbroken, when the page has room. */
const UNBROKEN_PART = 12;
/** A column is never sized wider than this share of the page by one long value. */
const MAX_SHARE = 0.3;

/**
 * The lines a text takes in `width`, at most `maxLines` (the last one then ends with '…'):
 * words are kept whole when they fit on a line, a longer word breaks at its parts (WORD_PARTS),
 * and a part still too long at the last character that fits.
 */
export function wrapText(text: string, width: number, measure: (s: string) => number, maxLines = MAX_LINES): string[] {
  if (measure(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  const push = () => {
    lines.push(line);
    line = '';
  };
  const place = (piece: string, sep: string) => {
    const joined = line ? line + sep + piece : piece;
    if (measure(joined) <= width) return void (line = joined);
    if (line) push();
    for (;;) {
      if (measure(piece) <= width) return void (line = piece);
      let cut = 1;
      while (cut < piece.length && measure(piece.slice(0, cut + 1)) <= width) cut++;
      line = piece.slice(0, cut);
      push();
      piece = piece.slice(cut);
      if (!piece || lines.length > maxLines) return;
    }
  };
  for (const word of text.split(/ +/)) {
    if (lines.length > maxLines) break;
    if (measure(line ? `${line} ${word}` : word) <= width || measure(word) <= width) place(word, ' ');
    else {
      if (line) push();
      for (const part of word.split(WORD_PARTS)) if (lines.length <= maxLines) place(part, '');
    }
  }
  if (line) push();
  if (lines.length <= maxLines) return lines;
  let last = lines[maxLines - 1]!;
  while (last && measure(`${last}…`) > width) last = last.slice(0, -1);
  return [...lines.slice(0, maxLines - 1), `${last}…`];
}

/** A document's page: A4 landscape by default; `perPage` rows at most on a page (a statement: 40). */
export interface PdfPages {
  layout?: 'portrait' | 'landscape';
  perPage?: number;
}

/**
 * `title`: the file's name, shown without its extension at the top of every page. pdfkit is loaded
 * by the first pdf, not by every server (5.6 MB of V8 heap, docs/performance.md).
 */
export async function pdfTable(out: Writable, columns: SheetColumn[], filename: string, pages: PdfPages = {}) {
  const { default: PDFDocument } = await import('pdfkit');
  const title = filename.replace(/\.pdf$/i, '');
  const doc = new PDFDocument({ size: 'A4', layout: pages.layout ?? 'landscape', margin: MARGIN, autoFirstPage: false, info: { Title: title } });
  doc.pipe(out, { end: false });
  doc.registerFont('regular', pdfFont(400)).registerFont('bold', pdfFont(700));

  const left = MARGIN;
  let widths: number[] = [];
  let bottom = 0;
  let y = 0;
  let page = 0;
  let lineHeight = 0;
  let fontSize = MAX_FONT;
  let onPage = 0;

  /** Each cell's lines in its column, in the current font. */
  // The epsilon: a column exactly as wide as a word, less its padding, must still hold it.
  const cellLines = (texts: string[]) => texts.map((text, col) => wrapText(text, widths[col]! - 2 * PAD + 0.01, (t) => doc.widthOfString(t)));

  const drawRow = (cells: string[][], fill?: string) => {
    const lines = Math.max(...cells.map((c) => c.length));
    const height = lines * lineHeight + 2 * PAD;
    if (fill)
      doc
        .rect(
          left,
          y,
          widths.reduce((a, b) => a + b, 0),
          height,
        )
        .fill(fill);
    doc.fillColor('#1a1f29');
    let x = left;
    cells.forEach((cell, col) => {
      cell.forEach((line, i) => line && doc.text(line, x + PAD, y + PAD + i * lineHeight, { lineBreak: false }));
      x += widths[col];
    });
    y += height;
    doc.moveTo(left, y).lineTo(x, y).lineWidth(0.5).strokeColor(RULE).stroke();
  };

  /**
   * Every column is at least as wide as the longest word of its label (a header never breaks
   * inside a word), as the values of its kind that must not break (a phone number, a date) and
   * as the longest word of its values in `sample` (up to UNBROKEN_PART characters).
   * When those least widths would take more than 85 % of the page, the type shrinks (down to
   * MIN_FONT), then, if still too wide, all columns shrink alike. Each column would like the
   * width of its widest value among `sample` (at most MAX_SHARE of the page): when all fit, each
   * gets that and the rest goes to the columns of free text; otherwise each gets its least width
   * and the rest is shared by what each still lacks, so an email column widens, not a
   * department's.
   */
  const layout = (sample: string[][]) => {
    const usable = doc.page.width - 2 * MARGIN;
    // The longest word (or part of a long one) of each column's values, up to 'facebook_ads'.
    const parts = columns.map((_, col) => {
      let longest = '';
      for (const row of sample) for (const part of row[col]!.split(/ +/).flatMap((w) => w.split(WORD_PARTS))) if (part.length > longest.length) longest = part;
      return longest.slice(0, UNBROKEN_PART);
    });
    const leastAt = (size: number) =>
      columns.map((c, col) => {
        doc.font('bold').fontSize(size);
        const label = Math.max(
          ...headerLabel(c.label)
            .split(/\s+/)
            .map((w) => doc.widthOfString(w)),
        );
        doc.font('regular').fontSize(size);
        return Math.max(label, doc.widthOfString(unbroken[c.kind] ?? '000000'), doc.widthOfString(parts[col]!)) + 2 * PAD;
      });
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    fontSize = Math.max(MIN_FONT, Math.min(MAX_FONT, (MAX_FONT * usable * 0.85) / sum(leastAt(MAX_FONT))));
    const least = leastAt(fontSize);
    const spare = usable - sum(least);
    if (spare <= 0) return least.map((w) => (w * usable) / (usable - spare));
    const wanted = least.map((w, col) => {
      const widest = Math.max(0, ...sample.map((row) => doc.widthOfString(row[col]!)));
      return Math.max(w, Math.min(usable * MAX_SHARE, widest + 2 * PAD));
    });
    const left = usable - sum(wanted);
    if (left >= 0) {
      // Only columns of free text take the rest: the others are already as wide as their values.
      const weights = columns.map((c, col) => (unbroken[c.kind] === undefined ? wanted[col]! : 0));
      const total = sum(weights) || 1;
      return wanted.map((w, col) => w + (left * weights[col]!) / total);
    }
    const lacks = wanted.map((w, col) => w - least[col]!);
    return least.map((w, col) => w + (spare * lacks[col]!) / sum(lacks));
  };

  const newPage = (sample: string[][]) => {
    doc.addPage();
    page++;
    onPage = 0;
    if (page === 1) {
      widths = layout(sample);
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
    drawRow(cellLines(labels), HEADER_FILL);
    doc.font('regular').fontSize(fontSize);
  };

  const textsOf = (row: CellValue[]) =>
    row.map((v, col) => {
      const text = printable(v);
      return columns[col]!.kind === 'datetime' || columns[col]!.kind === 'date' ? frenchDate(text) : text;
    });

  let rowIndex = 0;
  return {
    async rows(batch: CellValue[][]) {
      const texts = batch.map(textsOf);
      if (page === 0) newPage(texts);
      for (const row of texts) {
        const cells = cellLines(row);
        const lines = Math.max(...cells.map((c) => c.length));
        if (y + lines * lineHeight + 2 * PAD > bottom || onPage === pages.perPage) newPage([]);
        drawRow(cells, rowIndex++ % 2 ? ZEBRA_FILL : undefined);
        onPage++;
      }
      // Lets the piped file stream flush between batches.
      await new Promise((resolve) => setImmediate(resolve));
    },
    async end() {
      if (page === 0) newPage([]);
      const ended = once(doc, 'end');
      doc.end();
      await ended;
    },
  };
}
