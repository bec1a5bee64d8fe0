import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import Papa from 'papaparse';
import * as XLSX from 'xlsx';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileColumns, fileRowSql, type FileRow } from '../../server/services/exports/extract';
import { csvWriter } from '../../server/services/exports/writers';
import { getLandings } from '../../server/services/leads/landings';
import { ADMIN, startServer, type TestServer } from './harness';
import { createLanding, insertLeads, json, normalUserToken } from './leads-support';

let server: TestServer;
let token: string;
let landing: { id: number; key: string };

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
  landing = await createLanding(server.ctx.db);
});
afterAll(() => server.close());

type ExportAnswer = { data: { url: string; token: string; filename: string; count: number }; message: string };
const exportLeads = (body: unknown, as = token, ids = String(landing.id)) => server.request('POST', `/api/landings/data/${ids}/export`, { body, token: as });

const standardFontDataUrl = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
const hostile = ['=HYPERLINK("http://evil","x")', '+33 6 12', '-2+3', '@SUM(A1)', '\tTab', '\rCR', '\nLF', '\u0001=HYPERLINK("http://evil","y")'];

/** Each page's text, one line per text run, and its orientation. */
async function pdfPages(buf: Uint8Array): Promise<Array<{ text: string; landscape: boolean }>> {
  const doc = await getDocument({ data: buf, standardFontDataUrl, isEvalSupported: false }).promise;
  const pages = [];
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    const content = await page.getTextContent();
    const [, , width, height] = page.view;
    pages.push({
      text: content.items
        .map((i) => ('str' in i ? i.str : ''))
        .filter((t) => t.trim())
        .join('\n'),
      landscape: width > height,
    });
  }
  return pages;
}

const zipEntry = (buf: Uint8Array, name: string) =>
  new TextDecoder().decode(XLSX.CFB.find(XLSX.CFB.read(Buffer.from(buf), { type: 'buffer' }), name)!.content as Uint8Array);
const sheetXml = (buf: Uint8Array) => zipEntry(buf, '/xl/worksheets/sheet1.xml');
const stylesXml = (buf: Uint8Array) => zipEntry(buf, '/xl/styles.xml');
/** Index of the cell style that has quotePrefix. */
const quotePrefixStyle = (buf: Uint8Array) => {
  const xfs = /<cellXfs[^>]*>(.*?)<\/cellXfs>/.exec(stylesXml(buf))![1].match(/<xf [^>]*\/>/g)!;
  return xfs.findIndex((xf) => xf.includes('quotePrefix="1"'));
};
const cellXml = (xml: string, ref: string) => new RegExp(`<c r="${ref}"[^>]*>`).exec(xml)?.[0] ?? '';

describe('exports', () => {
  let hostileIds: number[];
  beforeAll(async () => {
    hostileIds = await insertLeads(
      server.ctx.db,
      landing.id,
      hostile.map((nom, i) => ({
        nom,
        telephone: `061234567${i}`,
        code_postal: '30000',
        extra: { prenom: 'Élodie "la" ; virgule, ok · Łódź Ŝtraße Жук Ωmega' },
      })),
    );
  });

  for (const bookType of ['csv', 'xlsx', 'txt', 'pdf'] as const) {
    it(`writes ${bookType}, neutralises formula-like cells, marks leads extracted and sold, and serves the file`, async () => {
      await server.ctx.db.query("UPDATE leads SET entry_status = 'new', export_id = NULL, sold_to = NULL WHERE id = ANY($1::bigint[])", [hostileIds]);
      const res = await exportLeads({ bookType, filename: `Vente été ${bookType}`, leads: hostileIds, for_customer: 'Client Sud', rapport: null });
      expect(res.status).toBe(200);
      const body = await json<ExportAnswer>(res);
      expect(body.message).toBe('Leads extraits');
      expect(body.data).toMatchObject({ filename: `Vente été ${bookType}.${bookType}`, count: hostile.length });
      expect(body.data.token).toMatch(/^[\w-]{43}$/);
      expect(body.data.url).toBe(`/api/exports/${body.data.token}/${encodeURIComponent(body.data.filename)}`);

      const leads = await server.ctx.db.query<{ entry_status: string; sold_to: string; export_id: number }>(
        'SELECT entry_status, sold_to, export_id FROM leads WHERE id = ANY($1::bigint[])',
        [hostileIds],
      );
      expect(new Set(leads.rows.map((r) => `${r.entry_status}|${r.sold_to}`))).toEqual(new Set(['extracted|Client Sud']));

      const file = await fetch(server.url + body.data.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('cache-control')).toBe('no-store');
      expect(file.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent(body.data.filename)}`);
      const buf = new Uint8Array(await file.arrayBuffer());

      if (bookType === 'csv') {
        expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
        const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(buf);
        expect(text.charCodeAt(0)).toBe(0xfeff);
        const parsed = Papa.parse<string[]>(text.slice(1), { delimiter: ';', skipEmptyLines: true });
        expect(parsed.data[0]).toContain('Nom');
        const col = parsed.data[0].indexOf('Nom');
        expect(parsed.data.slice(1).map((r) => r[col])).toEqual(hostile.map((h) => `'${h}`));
        expect(parsed.data[1][parsed.data[0].indexOf('Prénom')]).toBe('Élodie "la" ; virgule, ok · Łódź Ŝtraße Жук Ωmega');
      }
      if (bookType === 'xlsx') {
        expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
        const book = XLSX.read(buf, { type: 'array', cellStyles: true });
        const sheet = book.Sheets[book.SheetNames[0]];
        const rows = XLSX.utils.sheet_to_json<Record<string, string>>(sheet);
        // The text as it is, no visible quote, control characters as the spreadsheet escapes them (_x0001_), in a string cell styled quotePrefix.
        expect(rows.map((r) => r.Nom)).toEqual(hostile);
        expect(Object.values(sheet).some((c) => typeof c === 'object' && c !== null && 'f' in c)).toBe(false);
        expect(rows[0]['Département']).toBe('30');
        const xml = sheetXml(buf);
        const nomColumn = XLSX.utils.encode_col(Object.keys(rows[0]).indexOf('Nom'));
        const quoted = quotePrefixStyle(buf);
        expect(quoted).toBeGreaterThan(0);
        for (let r = 2; r < 2 + hostile.length; r++) expect(cellXml(xml, `${nomColumn}${r}`)).toContain(`s="${quoted}"`);
        // The date is a date cell (a serial day in a date-time format), not text.
        const date = sheet['B2'] as XLSX.CellObject;
        expect(date.t).toBe('n');
        expect(XLSX.SSF.is_date(date.z as string)).toBe(true);
        // Header row frozen, columns sized.
        expect(xml).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
        expect(sheet['!cols']?.length).toBe(XLSX.utils.decode_range(sheet['!ref']!).e.c + 1);
        expect(sheet['!cols']?.every((c) => (c.width ?? 0) >= 8)).toBe(true);
      }
      if (bookType === 'txt') {
        expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
        const lines = new TextDecoder().decode(buf).trim().split('\r\n');
        expect(lines).toHaveLength(hostile.length + 1);
        const col = lines[0].split('\t').indexOf('Nom');
        expect(lines.slice(1).map((l) => l.split('\t')[col])).toEqual(hostile.map((h) => `'${h}`.replace(/[\t\r\n]+/g, ' ')));
      }
      if (bookType === 'pdf') {
        expect(file.headers.get('content-type')).toBe('application/pdf');
        const pages = await pdfPages(buf);
        expect(pages[0].landscape).toBe(true);
        const text = pages.map((p) => p.text).join('\n');
        // A pdf is not a spreadsheet: values as they are, no neutralising quote.
        // Cells wrap: compare without the line breaks.
        const flat = text.replace(/\s+/g, '');
        expect(flat).toContain('=HYPERLINK("http://evil","x")');
        expect(flat).toContain('@SUM(A1)');
        expect(text).not.toContain("'=HYPERLINK");
        expect(text).toContain('Élodie');
        expect(flat).toContain('Élodie"la";virgule,ok·ŁódźŜtraßeЖукΩmega');
        expect(pages[0].text).toMatch(/^Vente été pdf\nPage 1\nID\nDate\nNom\nPrénom\nTéléphone\nEmail\nCode\spostal/);
      }
      const audit = await server.ctx.db.query("SELECT 1 FROM audit_log WHERE action = 'download' AND details->>'export_id' IS NOT NULL");
      expect(audit.rows.length).toBeGreaterThan(0);
    });
  }

  it('writes csv lines (the database builds them) exactly as the csv writer does from the same leads', async () => {
    const values = ['a;b', 'a,b', 'a|b', 'a\tb', 'dit "oui"', ' bord', 'bord ', '\uFEFFbom', 'ligne\r\nsuite', '=1+2', '-3', '\u0002@x', "l'été", '', 'simple'];
    const ids = await insertLeads(
      server.ctx.db,
      landing.id,
      values.map((nom, i) => ({
        nom,
        telephone: `07000000${String(i).padStart(2, '0')}`,
        code_postal: '30000',
        // Numbers (a negative one is never neutralised), JSON null, a missing value, and text in a number column.
        extra: { prenom: i % 3 === 0 ? -i - 0.5 : i % 3 === 1 ? null : nom, surface: i % 2 ? 1200.25 : `+${i}`, chauffage: i % 4 ? 'Gaz' : undefined },
      })),
    );
    await server.ctx.db.query(`UPDATE leads SET utm_source = ' ; x', utm_medium = '@m', utm_campaign = 'été "2025"' WHERE id = ANY($1::bigint[])`, [ids]);
    // Lines whose one special cell is the name, or none: the database writes a line whose cells need
    // nothing as it is, after one test of the whole line, which each of these must fail but the last two.
    const alone = ['a;b', ' bord', 'bord ', '=1', '\u0001x', 'dit "oui"', 'été ü', ''];
    ids.push(
      ...(await insertLeads(
        server.ctx.db,
        landing.id,
        alone.map((nom, i) => ({ nom, telephone: `07000001${String(i).padStart(2, '0')}`, code_postal: '30000', extra: { prenom: 'Jean', surface: 100 } })),
      )),
    );
    const link = (await json<ExportAnswer>(await exportLeads({ bookType: 'csv', leads: ids }))).data;
    const file = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (await fetch(server.url + link.url)).arrayBuffer());

    const columns = fileColumns(await getLandings(server.ctx.db, [landing.id]));
    const { rows } = await server.ctx.db.query<{ row: FileRow }>(`SELECT ${fileRowSql} AS row FROM leads WHERE id = ANY($1::bigint[]) ORDER BY id`, [ids]);
    let expected = '';
    const writer = csvWriter(
      new Writable({ write: (chunk: Buffer, _encoding, done) => ((expected += chunk.toString()), done()) }),
      columns.columns.map((c) => c.label),
    );
    await writer.rows(rows.map((r) => columns.row(r.row)));
    expect(file).toBe(expected);
    expect(file.split('\r\n').length).toBe(values.length + alone.length + 4); // the header, two cells with a line break, the last CRLF
  });

  it('logs a download, not a HEAD of its link', async () => {
    const [id] = await insertLeads(server.ctx.db, landing.id, [{}]);
    const link = (await json<ExportAnswer>(await exportLeads({ bookType: 'csv', leads: [id] }))).data;
    const downloads = async () =>
      (
        await server.ctx.db.query(
          "SELECT 1 FROM audit_log WHERE action = 'download' AND details->>'export_id' = (SELECT id::text FROM exports WHERE token = $1)",
          [link.token],
        )
      ).rows.length;
    const href = new URL(link.url, server.url).toString();
    const head = await fetch(href, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(await downloads()).toBe(0);
    expect((await fetch(href)).status).toBe(200);
    expect(await downloads()).toBe(1);
  });

  it('sells a lead once: a second export of the same leads is refused', async () => {
    const ids = await insertLeads(server.ctx.db, landing.id, [{}, {}]);
    expect((await exportLeads({ bookType: 'csv', leads: ids })).status).toBe(200);
    const again = await exportLeads({ bookType: 'csv', leads: ids });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ error: 'conflict', message: expect.stringContaining('déjà été extraits') });
  });

  it('10 simultaneous exports of overlapping selections put each lead in exactly one file', async () => {
    const ids = await insertLeads(
      server.ctx.db,
      landing.id,
      Array.from({ length: 60 }, (_, i) => ({ nom: `Conc ${i}` })),
    );
    const staff = await normalUserToken(server);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, k) =>
        exportLeads({ bookType: 'csv', leads: ids.slice(k * 5, k * 5 + 20), for_customer: `Acheteur ${k}` }, k % 2 ? staff : token),
      ),
    );
    const inFiles: number[] = [];
    for (const res of answers) {
      expect([200, 409]).toContain(res.status);
      if (res.status !== 200) continue;
      const body = await json<ExportAnswer>(res);
      const text = await (await fetch(server.url + body.data.url)).text();
      const rows = Papa.parse<string[]>(text, { delimiter: ';', skipEmptyLines: true }).data.slice(1);
      expect(rows).toHaveLength(body.data.count);
      inFiles.push(...rows.map((r) => Number(r[0])));
    }
    expect(inFiles.length).toBe(new Set(inFiles).size);
    expect(new Set(inFiles)).toEqual(new Set(ids));
    const sold = await server.ctx.db.query<{ n: number }>(
      "SELECT count(DISTINCT export_id)::int AS n FROM leads WHERE id = ANY($1::bigint[]) AND entry_status = 'extracted'",
      [ids],
    );
    expect(sold.rows[0].n).toBeGreaterThan(0);
  });

  it('sells 12,000 leads: the file lists each once in id order, and one unknown id sells none', async () => {
    const ids = await insertLeads(
      server.ctx.db,
      landing.id,
      Array.from({ length: 12_000 }, (_, i) => ({ nom: `Lot ${i}` })),
    );
    const unknown = await exportLeads({ bookType: 'csv', leads: [...ids, ids[ids.length - 1] + 1_000_000] });
    expect(unknown.status).toBe(404);
    const unsold = await server.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM leads WHERE id = ANY($1::bigint[]) AND entry_status = 'new'", [
      ids,
    ]);
    expect(unsold.rows[0].n).toBe(12_000);

    const shuffled = [...ids].sort((a, b) => ((a * 7919) % 12_007) - ((b * 7919) % 12_007));
    const body = await json<ExportAnswer>(await exportLeads({ bookType: 'csv', leads: shuffled, for_customer: 'Gros lot' }));
    expect(body.data.count).toBe(12_000);
    const text = await (await fetch(server.url + body.data.url)).text();
    const rows = Papa.parse<string[]>(text, { delimiter: ';', skipEmptyLines: true }).data.slice(1);
    expect(rows.map((r) => Number(r[0]))).toEqual(ids);
  });

  it('writes a large xlsx whole, batch after batch', async () => {
    const ids = await insertLeads(
      server.ctx.db,
      landing.id,
      Array.from({ length: 2_600 }, (_, i) => ({ nom: i % 2 ? `=Lot ${i}` : `Lot ${i}` })),
    );
    const body = await json<ExportAnswer>(await exportLeads({ bookType: 'xlsx', leads: ids }));
    expect(body.data.count).toBe(2_600);
    const book = XLSX.read(new Uint8Array(await (await fetch(server.url + body.data.url)).arrayBuffer()), { type: 'array' });
    const rows = XLSX.utils.sheet_to_json<Record<string, string | number>>(book.Sheets[book.SheetNames[0]]);
    expect(rows.map((r) => r.ID)).toEqual(ids);
    expect(rows.slice(0, 2).map((r) => r.Nom)).toEqual(['Lot 0', '=Lot 1']);
  });

  it('writes a pdf table over many pages, each with the header row and its number', async () => {
    const ids = await insertLeads(
      server.ctx.db,
      landing.id,
      Array.from({ length: 150 }, (_, i) => ({ nom: `Page ${i} ${'très long nom de famille '.repeat(i % 3)}`, email: `lead${i}@exemple.fr` })),
    );
    const body = await json<ExportAnswer>(await exportLeads({ bookType: 'pdf', filename: 'Liste', leads: ids }));
    const pages = await pdfPages(new Uint8Array(await (await fetch(server.url + body.data.url)).arrayBuffer()));
    expect(pages.length).toBeGreaterThan(2);
    pages.forEach((page, i) => {
      expect(page.landscape).toBe(true);
      expect(page.text).toMatch(new RegExp(`^Liste\\nPage ${i + 1}\\nID\\nDate\\nNom`));
    });
    const text = pages.map((p) => p.text).join('\n');
    for (const id of ids) expect(text).toMatch(new RegExp(`^${id}$`, 'm'));
  });

  it('unlinks its leads when an export is deleted', async () => {
    const ids = await insertLeads(server.ctx.db, landing.id, [{}, {}]);
    const body = await json<ExportAnswer>(await exportLeads({ bookType: 'csv', leads: ids }));
    await server.ctx.db.query('DELETE FROM exports WHERE token = $1', [body.data.token]);
    const leads = await server.ctx.db.query<{ export_id: number | null }>('SELECT export_id FROM leads WHERE id = ANY($1::bigint[])', [ids]);
    expect(leads.rows).toEqual([{ export_id: null }, { export_id: null }]);
  });

  it('exports all leads matching a list filter, in the tab status only', async () => {
    const other = await createLanding(server.ctx.db);
    await insertLeads(server.ctx.db, other.id, [
      { nom: 'Filtre Gard', code_postal: '30000' },
      { nom: 'Filtre Gard 2', code_postal: '30100' },
      { nom: 'Filtre Paris', code_postal: '75001' },
      { nom: 'Filtre Gard archivé', code_postal: '30000', status: 'archived' },
    ]);
    const filter = { ids: [other.id], entry_status: 'new', filters: { values: { departement: ['30'] } } };
    const res = await exportLeads({ bookType: 'csv', filter, for_customer: 'Client Gard' }, token, String(other.id));
    const body = await json<ExportAnswer>(res);
    expect(body.data.count).toBe(2);
    const text = await (await fetch(server.url + body.data.url)).text();
    const rows = Papa.parse<string[]>(text, { delimiter: ';', skipEmptyLines: true }).data;
    expect(
      rows
        .slice(1)
        .map((r) => r[rows[0].indexOf('Nom')])
        .sort(),
    ).toEqual(['Filtre Gard', 'Filtre Gard 2']);
    const again = await exportLeads({ bookType: 'csv', filter }, token, String(other.id));
    expect(again.status).toBe(422);
    const list = await json<{ for_customer: string[] }>(await server.request('GET', `/api/landings/data/${other.id}?_limit=0`, { token }));
    expect(list.for_customer).toContain('Client Gard');
  });

  it('refuses an export with no leads, unknown leads or landings, and a bad format', async () => {
    for (const body of [{ bookType: 'csv', leads: [] }, { bookType: 'csv' }]) {
      const res = await exportLeads(body);
      expect(res.status).toBe(422);
      expect((await json<{ message: string }>(res)).message).toBe('Merci de sélectionner des leads');
    }
    expect((await exportLeads({ bookType: 'docx', leads: [1] })).status).toBe(422);
    expect((await exportLeads({ bookType: 'csv', leads: [987654321] })).status).toBe(404);
    expect((await exportLeads({ bookType: 'csv', leads: [1] }, token, '987654')).status).toBe(404);
    const ids = await insertLeads(server.ctx.db, landing.id, [{}]);
    expect((await exportLeads({ bookType: 'csv', leads: ids, rapport: 424242 })).status).toBe(404);
    expect((await exportLeads({ bookType: 'csv', leads: ids, rapport: 99_999_999_999 })).status).toBe(404);
    const count = await server.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM leads WHERE id = $1 AND entry_status = 'new'", [ids[0]]);
    expect(count.rows[0].n).toBe(1);
  });

  it('keeps the download link a capability: wrong token, wrong name or traversal → 404, never a file', async () => {
    const ids = await insertLeads(server.ctx.db, landing.id, [{}]);
    const body = await json<ExportAnswer>(await exportLeads({ bookType: 'txt', filename: '../../etc/passwd', leads: ids }));
    expect(body.data.filename).toBe('etc_passwd.txt');
    const good = await fetch(server.url + body.data.url);
    expect(good.status).toBe(200);
    const attempts = [
      `/api/exports/${'A'.repeat(43)}/${body.data.filename}`,
      `/api/exports/${body.data.token}/other.txt`,
      `/api/exports/${body.data.token}/..%2F..%2Fpackage.json`,
      `/api/exports/..%2F..%2F/package.json`,
    ];
    for (const path of attempts) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(404);
    }
  });
});
