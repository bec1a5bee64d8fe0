// The pdf export's table: columns sized by their values, long values broken where an address or
// a code parts itself (issue 24 item 22: emails were cut mid-word over three lines while the
// department column stayed wide).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import type { SheetColumn } from '../../../../../server/services/exports/cells';
import { pdfTable, wrapText } from '../../../../../server/services/exports/pdf-table';

const standardFontDataUrl = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

const columns: SheetColumn[] = [
  { label: 'ID', kind: 'id' },
  { label: 'Date', kind: 'datetime' },
  { label: 'Nom', kind: 'text' },
  { label: 'Prénom', kind: 'text' },
  { label: 'Téléphone', kind: 'phone' },
  { label: 'Email', kind: 'email' },
  { label: 'Code postal', kind: 'postal_code' },
  { label: 'Type de logement', kind: 'select' },
  { label: 'Département', kind: 'code' },
  { label: 'Zone climatique', kind: 'code' },
  { label: 'Source', kind: 'select' },
  { label: 'utm_source', kind: 'text' },
  { label: 'utm_medium', kind: 'text' },
  { label: 'utm_campaign', kind: 'text' },
];
const emails = ['jean-baptiste.dupont-moreau@entreprise-exemple.fr', 'marie.lefebvre_pro@orange.fr', 'francoise.de-la-fontaine@laposte.net'];

/** The pdf of `rows`, as pdfjs reads it: each text run with its left edge and baseline. */
async function render(rows: Array<Array<string | number>>) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const table = await pdfTable(out, columns, 'exemple.pdf');
  await table.rows(rows);
  await table.end();
  const doc = await getDocument({ data: new Uint8Array(Buffer.concat(chunks)), standardFontDataUrl, isEvalSupported: false }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items.flatMap((i) => ('str' in i && i.str.trim() ? [{ text: i.str, x: i.transform[4] as number, y: i.transform[5] as number }] : []));
}

const row = (i: number) => [
  100_000 + i,
  '2026-11-25 14:12:40',
  'Dupont',
  'Jean',
  '0612345678',
  emails[i % emails.length]!,
  '30000',
  'Maison',
  '30',
  'H3',
  'facebook',
  'facebook',
  'cpc',
  'pac_hiver',
];

describe('pdf table', () => {
  it('breaks a long email only after - or _ or before @ or ., and gives its column the room the department does not need', async () => {
    const runs = await render(Array.from({ length: 6 }, (_, i) => row(i)));
    const at = (text: string) => runs.find((r) => r.text === text)!;
    const emailX = at('Email').x;
    const depX = at('Département').x;
    const nextX = at('Zone').x;
    // The email column's runs, top to bottom, grouped by the row each starts in.
    const emailRuns = runs.filter((r) => r.x === emailX && r.text !== 'Email').sort((a, b) => b.y - a.y);
    const cells: string[][] = [];
    for (const r of emailRuns) {
      if (
        emails.some((e) => e.startsWith(r.text)) &&
        !cells
          .at(-1)
          ?.join('')
          .startsWith(emails.find((e) => e.startsWith(r.text))!)
      )
        cells.push([r.text]);
      else cells.at(-1)!.push(r.text);
    }
    expect(cells.map((c) => c.join(''))).toEqual(Array.from({ length: 6 }, (_, i) => emails[i % emails.length]));
    for (const lines of cells) {
      expect(lines.length).toBeLessThanOrEqual(2);
      for (let i = 1; i < lines.length; i++) expect(/[-_]$/.test(lines[i - 1]!) || /^[@.]/.test(lines[i]!), lines.join(' | ')).toBe(true);
    }
    // Short values stay on one line: 'facebook', the department, the source.
    expect(runs.filter((r) => r.text === 'facebook')).toHaveLength(12);
    // The department column is as wide as its label, not more; the email one wider than both.
    const depWidth = nextX - depX;
    const emailWidth = runs.filter((r) => r.x > emailX).reduce((min, r) => Math.min(min, r.x), Infinity) - emailX;
    expect(emailWidth).toBeGreaterThan(2 * depWidth);
    expect(depWidth).toBeLessThan(70);
  });

  it('wraps at spaces first, then at the parts of a word, then anywhere, ending with an ellipsis past the last line', () => {
    const measure = (s: string) => s.length;
    expect(wrapText('court', 10, measure)).toEqual(['court']);
    expect(wrapText('deux mots assez longs', 10, measure)).toEqual(['deux mots', 'assez', 'longs']);
    expect(wrapText('jean.dupont@exemple.fr', 12, measure)).toEqual(['jean.dupont', '@exemple.fr']);
    expect(wrapText('pac_hiver_2026_occitanie', 12, measure)).toEqual(['pac_hiver_', '2026_', 'occitanie']);
    expect(wrapText('jean-baptiste', 6, measure)).toEqual(['jean-', 'baptis', 'te']);
    expect(wrapText('aaaaaaaaaaaaaaaaaaaa', 4, measure, 3)).toEqual(['aaaa', 'aaaa', 'aaa…']);
  });
});
