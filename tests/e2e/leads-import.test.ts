// The lead view's import tab in Chromium (a Windows-1252 ';' CSV as French Excel saves it, an
// XLSX written by hand), and axe-core on every tab of the lead view.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handMadeXlsx, windows1252 } from '../fixtures/ooxml';
import { axeViolations, DEMO, signIn, startApp, networkIdle, type App } from './harness';
import { createLanding } from './landing-fixture';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const emptyLanding = async (name: string) => (await createLanding(app.server.ctx.db, name)).id;

async function imported(landingId: number) {
  const { rows } = await app.server.ctx.db.query<{ nom: string; prenom: string; utm_medium: string; departement: string }>(
    `SELECT data->>'nom' AS nom, data->>'prenom' AS prenom, utm_medium, departement FROM leads WHERE landing_id = $1 ORDER BY id`,
    [landingId],
  );
  return rows;
}

async function importFile(page: Page, landingId: number, source: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.goto(`/landings_test/${landingId}?tab=import`);
  const input = page.getByLabel('Fichier CSV ou XLSX');
  expect(await input.isDisabled()).toBe(true);
  await page.getByRole('combobox', { name: 'Source (utm_medium)' }).fill(source);
  await page.keyboard.press('Escape');
  await input.setInputFiles(file);
  await page.getByText('Correspondance des colonnes').waitFor();
}

describe('import', () => {
  it('imports a Windows-1252 CSV with ; separators, its columns matched by name', async () => {
    const id = await emptyLanding('E2E Import CSV');
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    const csv = windows1252(
      'NOM;Prénom;Téléphone;E-mail;Code Postal;Ville\r\n' +
        'Lefèvre;Élodie;06 12 34 56 78;elodie@exemple.fr;30000;Nîmes\r\n' +
        'Dupré;Anaïs;0698765432;anais@exemple.fr;34000;Montpellier\r\n' +
        'Øster;Zoë;0611223344;zoe@exemple.fr;20200;Bastia\r\n',
    );
    await importFile(page, id, 'salon-2025', { name: 'export-excel.csv', mimeType: 'text/csv', buffer: csv });
    await page.getByText(/export-excel\.csv\s: CSV, 3 lignes/).waitFor();
    await page.getByText('· windows-1252 · « ; »').waitFor();
    // Matched despite case, accents and punctuation: NOM → nom, Code Postal → code_postal, E-mail → email.
    expect(await page.getByLabel(/^Nom/).inputValue()).toBe('NOM');
    expect(await page.getByLabel(/^Code postal/).inputValue()).toBe('Code Postal');
    expect(await page.getByLabel(/^Email/).inputValue()).toBe('E-mail');
    // The mapping is editable; a required column left out blocks the import, row by row.
    await page.getByLabel(/^Email/).selectOption('');
    await page.getByText('Ligne 1 : « Email » est vide').waitFor();
    expect(await page.getByRole('button', { name: 'Importer 3 leads' }).isDisabled()).toBe(true);
    await page.getByLabel(/^Email/).selectOption('E-mail');
    expect(await page.locator('.import-preview').textContent()).toContain('Élodie');
    // 'Ville' feeds no column: it is listed, and the import waits until the user leaves it out knowingly.
    const unmapped = page.getByRole('group', { name: "1 colonne du fichier n'alimente aucune colonne" });
    await unmapped.getByText('Ville').waitFor();
    await unmapped.getByText('(ex. « Nîmes »)').waitFor();
    expect(await page.getByRole('button', { name: 'Importer 3 leads' }).isDisabled()).toBe(true);
    await unmapped.getByRole('checkbox', { name: 'Importer sans cette colonne' }).check();
    await page.getByRole('button', { name: 'Importer 3 leads' }).click();
    await page.getByText('Leads importés : 3').waitFor();
    expect(await imported(id)).toEqual([
      { nom: 'Lefèvre', prenom: 'Élodie', utm_medium: 'salon-2025', departement: '30' },
      { nom: 'Dupré', prenom: 'Anaïs', utm_medium: 'salon-2025', departement: '34' },
      { nom: 'Øster', prenom: 'Zoë', utm_medium: 'salon-2025', departement: '2B' },
    ]);
    expect(errors).toEqual([]);
  });

  it('imports an XLSX not written by SheetJS, and shows the rows the server refuses', async () => {
    const id = await emptyLanding('E2E Import XLSX');
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    const table = [
      ['nom', 'prenom', 'telephone', 'email', 'code_postal'],
      ['Bernard', 'Hélène', '0612345678', 'helene@exemple.fr', '69001'],
      ['Petit', 'Noël', 'pas un numéro', 'noel@exemple.fr', '75011'],
    ];
    const xlsx = { name: 'leads.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: handMadeXlsx(table) };
    await importFile(page, id, 'partenaire', xlsx);
    await page.getByText(/leads\.xlsx\s: XLSX, 2 lignes/).waitFor();
    await page.getByRole('button', { name: 'Importer 2 leads' }).click();
    // All or nothing: the bad phone number refuses the file and names its row.
    await page
      .locator('.import-problems')
      .getByText(/Ligne 2, telephone/)
      .waitFor();
    expect(await imported(id)).toEqual([]);

    // Fixed, and saved the way Excel does: shared strings, phone numbers as numbers without their 0.
    const fixed = [table[0], ['Bernard', 'Hélène', 612345678, 'helene@exemple.fr', 69001], ['Petit', 'Noël', 798765432, 'noel@exemple.fr', 75011]];
    await page.getByLabel('Fichier CSV ou XLSX').setInputFiles({ ...xlsx, buffer: handMadeXlsx(fixed, { sharedStrings: true }) });
    await page.getByRole('button', { name: 'Importer 2 leads' }).click();
    await page.getByText('Leads importés : 2').waitFor();
    expect((await imported(id)).map((r) => [r.prenom, r.utm_medium, r.departement])).toEqual([
      ['Hélène', 'partenaire', '69'],
      ['Noël', 'partenaire', '75'],
    ]);
    expect(errors).toEqual([]);
  });

  it('lets a file column that matches no name be mapped to a form column, and shows the reading progress in percent', async () => {
    const id = await emptyLanding('E2E Import Colonnes');
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    const lines = ['Nom de famille;Prénom;Portable;Email;CP'];
    for (let i = 0; i < 150_000; i++) lines.push(`Nom${i};Prénom${i};06${String(i).padStart(8, '0')};p${i}@exemple.fr;30000`);
    const csv = Buffer.from(lines.join('\r\n'), 'utf8');
    await page.goto(`/landings_test/${id}?tab=import`);
    await page.getByRole('combobox', { name: 'Source (utm_medium)' }).fill('salon');
    await page.keyboard.press('Escape');
    const percents: string[] = [];
    const watch = page.waitForFunction(
      () => {
        const text = document.querySelector('.import-progress span')?.textContent ?? '';
        if (/\d+\s?%/.test(text)) (window as unknown as { seen: string[] }).seen = [...((window as unknown as { seen?: string[] }).seen ?? []), text];
        return document.querySelector('.import-file') !== null;
      },
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    await page.getByLabel('Fichier CSV ou XLSX').setInputFiles({ name: 'colonnes.csv', mimeType: 'text/csv', buffer: csv });
    await watch;
    percents.push(...(await page.evaluate(() => (window as unknown as { seen?: string[] }).seen ?? [])));
    expect(percents.length).toBeGreaterThan(0);
    expect(percents[0]).toMatch(/^Lecture du fichier… \d+\s?%$/);

    await page.getByRole('group', { name: "3 colonnes du fichier n'alimentent aucune colonne" }).waitFor();
    await page.screenshot({ path: '/tmp/leads-import-unmapped.png' });
    const unmapped = page.locator('.import-unmapped');
    await unmapped.getByLabel(/^Nom de famille/).selectOption({ label: 'Nom' });
    await unmapped.getByLabel(/^Portable/).selectOption({ label: 'Téléphone' });
    await unmapped.getByLabel(/^CP/).selectOption({ label: 'Code postal' });
    await unmapped.waitFor({ state: 'detached' });
    expect(await page.getByLabel(/^Nom/, { exact: false }).first().inputValue()).toBe('Nom de famille');
    await page.getByRole('button', { name: 'Importer 150 000 leads' }).waitFor();
    expect(await page.getByRole('button', { name: 'Importer 150 000 leads' }).isDisabled()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('says import is not available with several landings', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.staff, '/landings_test/1,2?tab=import');
    await page.getByText("L'import n'est pas disponible si plusieurs landings sont sélectionnées").waitFor();
  });
});

describe('accessibility', () => {
  const tabs = ['new', 'extracted', 'archived', 'trashed', 'doublons', 'production', 'convertis', 'production_extracted', 'stock', 'landings', 'import'];

  it('has no serious or critical axe violation on any tab of the lead view', async () => {
    const { page, errors } = await app.page();
    // Tab to tab as a user goes, in one page: axe is loaded once, the app once.
    await signIn(page, DEMO.staff, '/landings_test/1');
    const found: Record<string, string[]> = {};
    for (const tab of tabs) {
      await page.locator(`[role=tab][id$="-tab-${tab}"]`).click();
      await page.locator(`[role=tab][id$="-tab-${tab}"][aria-selected=true]`).waitFor();
      await networkIdle(page);
      // The screen itself (#main): the shell has its own tests.
      const violations = await axeViolations(page, '#main');
      if (violations.length) found[tab] = violations;
    }
    expect(found).toEqual({});
    expect(errors).toEqual([]);
  });
});
