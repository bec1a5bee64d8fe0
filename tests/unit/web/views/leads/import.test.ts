import { describe, expect, it } from 'vitest';
import { decodeText, detectDelimiter } from '../../../../../src/views/leads/import/decode';
import { autoMatch, importTargets, mappedRows, missingRequired, normalizeName } from '../../../../../src/views/leads/import/mapping';
import { ParseError, parseCsv, parseFile, parseXlsx } from '../../../../../src/views/leads/import/parseFile';
import { checkZip } from '../../../../../src/shared/zipCheck';
import { handMadeXlsx, windows1252, xlsxParts, zip } from '../../../../fixtures/ooxml';

const u8 = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

describe('import: reading files', () => {
  it('tells UTF-8 from the Windows-1252 French Excel writes', () => {
    expect(decodeText(u8(Buffer.from('Nom;Prénom\nÉlodie;Zoé', 'utf8')))).toEqual({ text: 'Nom;Prénom\nÉlodie;Zoé', encoding: 'utf-8' });
    expect(decodeText(u8(windows1252('Nom;Prénom\nÉlodie;Zoé €')))).toEqual({ text: 'Nom;Prénom\nÉlodie;Zoé €', encoding: 'windows-1252' });
  });

  it('detects the delimiter of the header line, quotes aside', () => {
    expect(detectDelimiter('nom;prenom;"a,b,c"\n1;2;3')).toBe(';');
    expect(detectDelimiter('nom,prenom,ville\n')).toBe(',');
    expect(detectDelimiter('nom\tprenom\n')).toBe('\t');
  });

  it('parses a Windows-1252 ; CSV with BOM-less accents, quoted newlines and blank lines', () => {
    const csv = windows1252('Nom;Prénom;Adresse\r\nDurand;Élodie;"12 rue de l\'Église\r\n30000 Nîmes"\r\n\r\nMartin;Zoé;\r\n');
    const file = parseCsv(u8(csv));
    expect(file).toMatchObject({ format: 'csv', encoding: 'windows-1252', delimiter: ';', headers: ['Nom', 'Prénom', 'Adresse'] });
    expect(file.rows).toEqual([
      ['Durand', 'Élodie', "12 rue de l'Église\r\n30000 Nîmes"],
      ['Martin', 'Zoé', ''],
    ]);
  });

  it('strips a UTF-8 BOM and names blank or repeated headers', () => {
    const file = parseCsv(u8(Buffer.from('\uFEFFnom,,nom\na,b,c\n', 'utf8')));
    expect(file.headers).toEqual(['nom', '#2', 'nom (3)']);
  });

  it('refuses empty files and files without data rows', () => {
    expect(() => parseCsv(u8(Buffer.from('\n\n')))).toThrow(ParseError);
    expect(() => parseCsv(u8(Buffer.from('nom;prenom\n')))).toThrowError('no_rows');
  });

  it('reads an XLSX written by hand, not by SheetJS', () => {
    const file = parseFile(
      u8(
        handMadeXlsx([
          ['Nom', 'Téléphone', 'CP'],
          ['Durand', '0612345678', 30000],
          ['Zoé', '0698765432', '2A004'],
        ]),
      ),
    );
    expect(file).toMatchObject({ format: 'xlsx', headers: ['Nom', 'Téléphone', 'CP'] });
    expect(file.rows).toEqual([
      ['Durand', '0612345678', '30000'],
      ['Zoé', '0698765432', '2A004'],
    ]);
  });

  it('reads shared strings and bare numbers as Excel writes them (leading zeros lost, restored by the server)', () => {
    const file = parseFile(
      u8(
        handMadeXlsx(
          [
            ['Nom', 'Téléphone', 'CP'],
            ['Lefèvre', 612345678, 1000],
            ['Lefèvre', 698765432, 30000],
          ],
          { sharedStrings: true },
        ),
      ),
    );
    expect(file.headers).toEqual(['Nom', 'Téléphone', 'CP']);
    expect(file.rows).toEqual([
      ['Lefèvre', '612345678', '1000'],
      ['Lefèvre', '698765432', '30000'],
    ]);
  });

  it('checks the zip directory before inflating: declared size, ratio, entry count', () => {
    expect(checkZip(u8(handMadeXlsx([['a'], ['b']])))).toMatchObject({ ok: true, entries: 5 });
    expect(checkZip(u8(zip(xlsxParts([['a'], ['b']]), 900 * 1024 * 1024)))).toEqual({ ok: false, reason: 'too_big' });
    // 64 MB of zeros deflate to a few kB: a bomb by its ratio.
    expect(checkZip(u8(zip({ 'xl/worksheets/sheet1.xml': Buffer.alloc(64 * 1024 * 1024) })))).toEqual({ ok: false, reason: 'ratio' });
    const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`f${i}.xml`, 'x']));
    expect(checkZip(u8(zip(many)))).toEqual({ ok: false, reason: 'too_many_entries' });
    expect(() => parseXlsx(u8(zip(xlsxParts([['a'], ['b']]), 900 * 1024 * 1024)))).toThrowError('too_big');
    expect(checkZip(u8(Buffer.from('PK\u0003\u0004 not really a zip')))).toEqual({ ok: false, reason: 'not_zip' });
  });
});

describe('import: mapping', () => {
  const columns = [
    { key: 'nom', label: 'Nom', type: 'text' as const, required: true },
    { key: 'code_postal', label: 'Code postal', type: 'postal_code' as const, required: true },
    { key: 'telephone', label: 'Téléphone', type: 'phone' as const, required: false },
  ];
  const targets = importTargets(columns, (k) => k);

  it('matches file columns by name, ignoring accents, case and punctuation', () => {
    expect(normalizeName('Téléphone  portable')).toBe('telephoneportable');
    const m = autoMatch(targets, ['NOM', 'Code-Postal', 'TELEPHONE', 'utm source', 'Autre']);
    expect(m).toMatchObject({ nom: 'NOM', code_postal: 'Code-Postal', telephone: 'TELEPHONE', utm_source: 'utm source', source: '' });
    expect(targets.map((t) => t.key)).not.toContain('utm_medium');
  });

  it('lists the rows whose required columns are empty', () => {
    const headers = ['NOM', 'CP'];
    const rows = [
      ['Durand', '30000'],
      ['', '30000'],
      ['Martin', ' '],
    ];
    expect(missingRequired(targets, { nom: 'NOM', code_postal: 'CP' }, headers, rows)).toEqual([
      { row: 2, column: 'nom', message: 'Nom' },
      { row: 3, column: 'code_postal', message: 'Code postal' },
    ]);
    expect(missingRequired(targets, { nom: 'NOM', code_postal: '' }, headers, rows.slice(0, 1))).toHaveLength(1);
  });

  it('sends only the mapped columns, as own properties even for hostile headers', () => {
    const rows = mappedRows(
      { nom: '__proto__', code_postal: 'constructor', telephone: '' },
      ['__proto__', 'constructor', 'x'],
      [['Durand', '30000', 'ignored']],
    );
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(Object.keys(rows[0])).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(rows[0])).toBe('{"__proto__":"Durand","constructor":"30000"}');
  });
});
