import type { WorkSheet } from 'xlsx';
import { checkZip, isZip } from '../../../src/shared/zipCheck';
import { AppError, validationFailed } from '../../errors';
import { departementFor, normalizePostalCode, postalCodesByDepartement } from '../geo';

/** Size of a targeting file accepted (a sheet of every French postal code is about 60 kB). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Codes a list may hold: France has about 6,000. */
const MAX_CODES = 10_000;
/** Lines of a file read: a list of every commune with its postal code (about 39,000 lines) fits. */
const MAX_ROWS = 100_000;
/** Inflated size of the file's zip entries: far beyond any list of postal codes, far below a bomb. */
const ZIP_LIMITS = { maxEntries: 200, maxUncompressed: 50 * 1024 * 1024, maxRatio: 200 };

const fileRefused = (message: string) => validationFailed({ file: message }, message);

/** A code as it came, and where (1-based line of the file, or position in the typed list). */
interface RawCode {
  text: string;
  line: number;
}

/**
 * The postal codes of an xlsx: first column of the first sheet, read as the text the cell shows
 * (a cell formatted 00000 keeps 01000; a bare number 1000 gets its zero back); a first line that
 * is no code is a header. The zip's directory is checked before anything is inflated. SheetJS is
 * loaded by the first such file: held from the start, it was 11 MB of the server's resident set.
 */
export async function codesOfXlsx(bytes: Buffer): Promise<RawCode[]> {
  if (!isZip(bytes)) throw fileRefused("Le fichier n'est pas un fichier xlsx");
  const zip = checkZip(bytes, ZIP_LIMITS);
  if (!zip.ok) {
    throw fileRefused(
      zip.reason === 'not_zip' ? 'Le fichier xlsx est illisible' : 'Le fichier xlsx se décompresse en un contenu trop volumineux : il est refusé',
    );
  }
  const XLSX = await import('xlsx');
  let sheet: WorkSheet | undefined;
  try {
    // One line more than is kept: a file longer than that is refused whole, never cut short
    // (a send replaces the campaign's whole list).
    const book = XLSX.read(bytes, { type: 'buffer', sheetRows: MAX_ROWS + 1, cellFormula: false, cellHTML: false, bookVBA: false });
    sheet = book.Sheets[book.SheetNames[0] ?? ''];
  } catch {
    throw fileRefused('Le fichier xlsx est illisible');
  }
  if (!sheet) throw fileRefused('Le fichier ne contient aucune feuille');
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: true });
  // `!fullref`: the sheet's whole range when sheetRows cut it.
  const lines = sheet['!fullref'] ? XLSX.utils.decode_range(sheet['!fullref']).e.r + 1 : rows.length;
  if (Math.max(lines, rows.length) > MAX_ROWS) {
    throw fileRefused(`Le fichier compte plus de ${MAX_ROWS.toLocaleString('fr-FR').replace(/\s/g, ' ')} lignes : il est refusé, rien n'a été envoyé`);
  }
  const codes: RawCode[] = [];
  rows.forEach((row, i) => {
    const text = String(row[0] ?? '').trim();
    if (text === '' || (i === 0 && !/\d/.test(text))) return;
    codes.push({ text, line: i + 1 });
  });
  return codes;
}

/** Codes typed or sent as text (the departments' codes, the map's selection): separated by commas, semicolons, spaces or line breaks. */
export const codesOfText = (text: string): RawCode[] =>
  text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((t, i) => ({ text: t, line: i + 1 }));

/**
 * The codes made canonical, without duplicates, each a known French postal code. Unknown ones
 * fail the whole list (422 with `unknown`, and `rows` where they are): nothing is sent.
 */
export function checkPostalCodes(raw: RawCode[]): string[] {
  if (raw.length === 0) throw fileRefused('Aucun code postal dans la liste');
  const unknown: RawCode[] = [];
  const codes = new Set<string>();
  for (const r of raw) {
    const code = normalizePostalCode(r.text);
    if (/^\d{5}$/.test(code) && departementFor(code)) codes.add(code);
    else unknown.push(r);
  }
  if (unknown.length) {
    const shown = unknown.slice(0, 20).map((u) => u.text.slice(0, 20));
    const message = `Codes postaux inconnus : ${shown.join(', ')}${unknown.length > 20 ? ` et ${unknown.length - 20} autres` : ''}. Rien n'a été envoyé.`;
    throw new AppError(422, 'validation_failed', message, {
      status: false,
      errors: { file: message },
      unknown: unknown.slice(0, 1000).map((u) => u.text.slice(0, 50)),
      rows: unknown.slice(0, 1000).map((u) => u.line),
    });
  }
  if (codes.size > MAX_CODES) throw fileRefused(`Plus de ${MAX_CODES} codes postaux : la liste est refusée`);
  return [...codes].sort();
}

/** Every postal code of these departments ('Cibler des départements'); an unknown department → 422. */
export function codesOfDepartements(departements: string[]) {
  const all = postalCodesByDepartement();
  const unknown = departements.filter((d) => !all.has(d));
  if (unknown.length)
    throw validationFailed({ departements: `Départements inconnus : ${unknown.join(', ')}` }, `Départements inconnus : ${unknown.join(', ')}`);
  const codes = new Set<string>();
  const byDepartement: Record<string, number> = {};
  for (const d of departements) {
    const list = all.get(d)!;
    byDepartement[d] = list.length;
    for (const pc of list) codes.add(pc.code);
  }
  return { codes: [...codes].sort(), by_departement: byDepartement };
}
