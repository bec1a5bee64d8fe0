// The lead view in Chromium: triage of 50 leads by keyboard only and by mouse only, on a landing
// made for each test so every count is known.
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, signIn, startApp, networkIdle, type App } from './harness';
import { createLanding } from './landing-fixture';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

/** A landing with `n` new leads; lead g is 'Nom{g}', the newest is g = 1 (first row). */
export async function landingWithLeads(name: string, n: number): Promise<number> {
  const db = app.server.ctx.db;
  const { id, key } = await createLanding(db, name);
  await db.query(
    `INSERT INTO leads (landing_id, created_at, source, data, phone, email, departement)
     SELECT $1, now() - (g || ' minutes')::interval, 'google',
            jsonb_build_object('nom', 'Nom' || g, 'prenom', 'Prénom' || g, 'telephone', '06' || lpad(g::text, 8, '0'),
                               'email', $3 || g || '@test.fr', 'code_postal', '30000'),
            '06' || lpad(g::text, 8, '0'), $3 || g || '@test.fr', '30'
       FROM generate_series(1, $2::int) g`,
    [id, n, key],
  );
  return id;
}

export async function statusCounts(landingId: number): Promise<Record<string, number>> {
  const { rows } = await app.server.ctx.db.query<{ entry_status: string; n: number }>(
    'SELECT entry_status, count(*)::int AS n FROM leads WHERE landing_id = $1 GROUP BY entry_status',
    [landingId],
  );
  return Object.fromEntries(rows.map((r) => [r.entry_status, r.n]));
}

const grid = (page: Page) => page.getByRole('grid', { name: 'Leads' });

async function openLanding(page: Page, id: number, rows: number) {
  await page.goto(`/landings_test/${id}`);
  await grid(page)
    .and(page.locator(`[aria-rowcount="${rows + 2}"]`))
    .waitFor();
  // The first page is drawn, not only counted, before the test types.
  await grid(page).getByRole('gridcell', { name: 'Nom1', exact: true }).waitFor();
}

async function press(page: Page, ...keys: string[]) {
  for (const k of keys) await page.keyboard.press(k);
}

/** Names (nom) of the rows whose checkbox is checked, as the grid shows them. */
async function selectedNames(page: Page) {
  return grid(page)
    .locator('[role=row][aria-selected=true]')
    .evaluateAll((rows) => rows.map((r) => r.querySelectorAll('[role=gridcell]')[3]?.textContent));
}

/** A toast, or the undo bar that reports a status change. */
const toast = (page: Page, text: string | RegExp) => page.locator('.toasts, .leads-undo').getByText(text).first().waitFor();

async function downloadedRows(page: Page): Promise<Record<string, string>[]> {
  const href = await page.locator('.leads-link a[download]').getAttribute('href');
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  const text = (await res.body()).toString('utf8').replace(/^\uFEFF/, '');
  return Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
}

async function exportedNames(): Promise<string[]> {
  const { rows } = await app.server.ctx.db.query<{ nom: string }>(
    `SELECT data->>'nom' AS nom FROM leads WHERE export_id = (SELECT max(id) FROM exports) ORDER BY id`,
  );
  return rows.map((r) => r.nom);
}

describe('lead triage, keyboard only', () => {
  it('moves, selects ranges, archives, undoes, marks bad, extracts to csv for a buyer, converts and deletes', async () => {
    const id = await landingWithLeads('E2E Clavier', 50);
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    await openLanding(page, id, 50);
    await page.getByRole('heading', { level: 1, name: 'E2E Clavier' }).waitFor();

    // j j x, then shift+j four times: rows 3 to 7.
    await press(page, 'j', 'j', 'x', 'Shift+J', 'Shift+J', 'Shift+J', 'Shift+J');
    expect(await selectedNames(page)).toEqual(['Nom3', 'Nom4', 'Nom5', 'Nom6', 'Nom7']);
    await page.getByText('50 leads · 5 sélectionnés').waitFor();

    await press(page, 'a');
    await toast(page, 'Leads archivés (5)');
    await grid(page).and(page.locator('[aria-rowcount="47"]')).waitFor();
    expect(await statusCounts(id)).toEqual({ new: 45, archived: 5 });
    // The focus moved on to the next lead still listed.
    expect(await grid(page).locator('[role=row].is-focused [role=gridcell]').nth(3).textContent()).toBe('Nom8');

    await press(page, 'z');
    await toast(page, 'Action annulée');
    await grid(page).and(page.locator('[aria-rowcount="52"]')).waitFor();
    expect(await statusCounts(id)).toEqual({ new: 50 });

    // Home, x, j, x, j, x: rows 1, 2, 3 → Mauvais.
    await press(page, 'Home', 'x', 'j', 'x', 'j', 'x', 'm');
    await toast(page, 'Leads placés à la corbeille (3)');
    expect(await statusCounts(id)).toEqual({ new: 47, trashed: 3 });
    await grid(page).and(page.locator('[aria-rowcount="49"]')).waitFor();

    // Extraction: file name, csv, a new buyer, then ten leads from the top.
    await press(page, 'f');
    await page.keyboard.type('vente-clavier');
    await press(page, 'Tab');
    await page.keyboard.type('c');
    expect(await page.getByLabel('Format').inputValue()).toBe('csv');
    await press(page, 'Tab');
    await page.keyboard.type('Acme Énergie');
    // Escape closes the buyers' list, a second one gives the keys back to the grid.
    await press(page, 'Escape', 'Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('grid');
    await press(page, 'Home', 'x', ...Array(9).fill('Shift+J'));
    await page.getByText('47 leads · 10 sélectionnés').waitFor();
    await press(page, 'e');
    await toast(page, /Leads extraits \(10\)/);
    await page.locator('.leads-link').getByText('Télécharger vente-clavier.csv').waitFor();
    expect(await statusCounts(id)).toEqual({ new: 37, trashed: 3, extracted: 10 });
    const sold = await app.server.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads WHERE landing_id = $1 AND sold_to = 'Acme Énergie'`, [id]);
    expect(sold.rows[0].n).toBe(10);
    const file = await downloadedRows(page);
    expect(file).toHaveLength(10);
    const names = await exportedNames();
    expect(names).toHaveLength(10);
    for (const name of names) expect(JSON.stringify(file)).toContain(`"${name}"`);

    // Convert two leads to Panneaux Solaires through the dialog, by keyboard: c, part of the name, Enter.
    await press(page, 'Home', 'x', 'Shift+J', 'c');
    const dialog = page.getByRole('dialog', { name: 'Convertir les leads sélectionnés' });
    await dialog.waitFor();
    await page.keyboard.type('panneaux');
    await press(page, 'Enter');
    await toast(page, 'Leads convertis (2)');
    // The dialog closed and gave the keyboard back to the grid.
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('grid');
    expect(await statusCounts(id)).toEqual({ new: 35, trashed: 3, extracted: 10, converted: 2 });

    // Definitive deletion of two leads, after the confirmation.
    await grid(page).and(page.locator('[aria-rowcount="37"]')).waitFor();
    // The list reloaded after the conversion (its rows and their order), as a user sees it settle.
    await networkIdle(page);
    await press(page, 'Home', 'x', 'j', 'x');
    await expect.poll(() => selectedNames(page)).toHaveLength(2);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('grid');
    await press(page, 'Shift+Delete');
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/Supprimer définitivement les 2 leads sélectionnés/).waitFor();
    await press(page, 'Tab', 'Enter');
    await toast(page, 'Leads supprimés (2)');
    expect(await statusCounts(id)).toEqual({ new: 33, trashed: 3, extracted: 10, converted: 2 });

    // Tabs by keyboard: 4 shows Mauvais with its three leads.
    await press(page, '4');
    await grid(page).and(page.locator('[aria-rowcount="5"]')).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('the keyboard stays with the list', () => {
  const focusedRole = (page: Page) =>
    page.evaluate(() =>
      document.activeElement === document.body ? 'body' : (document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName),
    );
  const focusedName = (page: Page) => grid(page).locator('.lg-row.is-focused [role=gridcell]').nth(3).textContent();

  it('after a tab change by key or click, a route change and a closed dialog; / reaches the Nom filter, a date range is one Tab stop', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    const id = await landingWithLeads('Clavier gardé', 12);
    await openLanding(page, id, 12);
    expect(await focusedRole(page)).toBe('grid');

    // Digit keys change tab; j works at once on the new tab's list, then back.
    await press(page, '2');
    await page.waitForURL(/tab=extracted/);
    await press(page, '1');
    await grid(page).getByRole('gridcell', { name: 'Nom1', exact: true }).waitFor();
    await press(page, 'j', 'j');
    expect(await focusedName(page)).toBe('Nom3');
    expect(await focusedRole(page)).toBe('grid');
    // A click on a tab hands the focus to the list it shows, as the tab keys do.
    await page.getByRole('tab', { name: 'Archivés' }).click();
    // The Archivés list must be on screen: a tab left before it was drawn keeps the old list and its focus.
    await page.waitForURL(/tab=archived/);
    await grid(page).getByRole('gridcell', { name: 'Nom1', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Nouveaux' }).click();
    await grid(page).getByRole('gridcell', { name: 'Nom1', exact: true }).waitFor();
    await press(page, 'j');
    expect(await focusedName(page)).toBe('Nom2');

    // '/' goes to the first text filter; Tab from the id filter to Nom crosses the date range once.
    await press(page, '/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Filtrer Nom');
    await page.getByRole('searchbox', { name: 'Filtrer Id' }).focus();
    await press(page, 'Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^Filtrer Créé le/);
    await press(page, 'Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Filtrer Nom');
    await press(page, 'Escape');
    expect(await focusedRole(page)).toBe('grid');

    // The convert dialog closed with Escape gives the focus back to the list.
    await press(page, 'x', 'c');
    const dialog = page.getByRole('dialog', { name: 'Convertir les leads sélectionnés' });
    await dialog.waitFor();
    await press(page, 'Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedRole(page)).toBe('grid');

    // A route change puts the focus in the new screen, never on <body>.
    await press(page, 'g', 'h');
    await page.waitForURL(/\/$/);
    expect(await focusedRole(page)).not.toBe('body');
    expect(errors).toEqual([]);
  });

  it('after a key to a tab without a list (statistics, Landings, import), the focus stays in the screen, and back on the list after 1', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    const id = await landingWithLeads('Onglets sans liste', 3);
    await openLanding(page, id, 3);
    for (const [key, tab] of [
      ['6', 'production'],
      ['7', 'convertis'],
      ['0', 'landings'],
      ['i', 'import'],
    ]) {
      await press(page, key);
      await page.waitForURL(new RegExp(`tab=${tab}`));
      // Sampled while the tab draws (up to a second on a loaded machine): the focus never passes by <body>.
      const seen = new Set<string>();
      for (const t0 = Date.now(); Date.now() - t0 < 1000;) seen.add(String(await focusedRole(page)));
      expect([...seen], `after ${key}`).not.toContain('body');
      expect(await page.evaluate(() => document.getElementById('main')?.contains(document.activeElement))).toBe(true);
    }
    await press(page, '1');
    await grid(page).getByRole('gridcell', { name: 'Nom1', exact: true }).waitFor();
    expect(await focusedRole(page)).toBe('grid');
    await press(page, 'j');
    expect(await focusedName(page)).toBe('Nom2');
    expect(errors).toEqual([]);
  });
});

describe('lead triage, mouse only', () => {
  it('does the same with clicks: checkboxes, shift+click, buttons, undo, download, convert and delete', async () => {
    const id = await landingWithLeads('E2E Souris', 50);
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    await openLanding(page, id, 50);
    const check = (n: number) => grid(page).getByRole('checkbox', { name: `Sélectionner la ligne ${n}` });
    const idOf = async (name: string) =>
      (await app.server.ctx.db.query<{ id: number }>(`SELECT id FROM leads WHERE landing_id = $1 AND data->>'nom' = $2`, [id, name])).rows[0].id;

    await check(await idOf('Nom2')).click();
    await grid(page)
      .getByText('Nom6', { exact: true })
      .click({ modifiers: ['Shift'] });
    expect(await selectedNames(page)).toEqual(['Nom2', 'Nom3', 'Nom4', 'Nom5', 'Nom6']);

    await page.getByRole('button', { name: /^Archiver/ }).click();
    await toast(page, 'Leads archivés (5)');
    expect(await statusCounts(id)).toEqual({ new: 45, archived: 5 });
    await page
      .locator('.leads-undo')
      .getByRole('button', { name: /Annuler/ })
      .click();
    await toast(page, 'Action annulée');
    expect(await statusCounts(id)).toEqual({ new: 50 });

    await grid(page).and(page.locator('[aria-rowcount="52"]')).waitFor();
    for (const n of ['Nom10', 'Nom11']) await check(await idOf(n)).click();
    await page.getByRole('button', { name: /^Mauvais/ }).click();
    await toast(page, 'Leads placés à la corbeille (2)');

    await page.getByPlaceholder('Nom du fichier').fill('vente-souris');
    await page.getByLabel('Format').selectOption('csv');
    await page.getByRole('combobox', { name: 'Vendu à' }).fill('Solaire Plus');
    await page.getByRole('heading', { level: 1 }).click();
    await grid(page).and(page.locator('[aria-rowcount="50"]')).waitFor();
    await page.getByLabel('Nombre de résultats').fill('4');
    await page.getByText('48 leads · 4 sélectionnés').waitFor();
    await page.getByRole('button', { name: /^Extraire/ }).click();
    await toast(page, /Leads extraits \(4\)/);
    const download = page.waitForEvent('download');
    await page.locator('.leads-link a[download]').click();
    const file = await (await download).path();
    const { readFileSync } = await import('node:fs');
    const rows = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
    expect(rows).toHaveLength(4);
    for (const name of await exportedNames()) expect(JSON.stringify(rows)).toContain(`"${name}"`);
    expect(await statusCounts(id)).toEqual({ new: 44, trashed: 2, extracted: 4 });

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copier le lien' }).click();
    await page.getByRole('button', { name: 'Copié' }).waitFor();

    await grid(page).and(page.locator('[aria-rowcount="46"]')).waitFor();
    await check(await idOf('Nom20')).click();
    await page.getByRole('button', { name: /^Convertir les leads sélectionnés/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Convertir les leads sélectionnés' });
    await dialog.getByRole('option', { name: 'Panneaux Solaires' }).click();
    await dialog.getByRole('button', { name: 'Confirmer' }).click();
    await toast(page, 'Leads convertis (1)');

    await grid(page).and(page.locator('[aria-rowcount="45"]')).waitFor();
    await check(await idOf('Nom21')).click();
    await page.getByRole('button', { name: /^Suppression définitive/ }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: /Confirmer|Supprimer|OK/ })
      .click();
    await toast(page, 'Leads supprimés (1)');
    expect(await statusCounts(id)).toEqual({ new: 42, trashed: 2, extracted: 4, converted: 1 });

    await page.getByRole('tab', { name: 'Mauvais' }).click();
    await grid(page).and(page.locator('[aria-rowcount="4"]')).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('lead view, other ways in and other tabs', () => {
  it('lists its commands in the palette and runs them from there', async () => {
    const id = await landingWithLeads('E2E Palette', 10);
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    await openLanding(page, id, 10);
    await press(page, 'x', 'Control+k');
    // The palette loads on its first opening: type once it is there, as the shell's tests do.
    await page.getByRole('dialog').getByRole('combobox').waitFor();
    await page.keyboard.type('archiver');
    await page
      .getByRole('dialog')
      .getByRole('option', { name: /^Archiver/, selected: true })
      .waitFor();
    await press(page, 'Enter');
    await toast(page, 'Leads archivés (1)');
    expect(await statusCounts(id)).toEqual({ new: 9, archived: 1 });
    await grid(page).and(page.locator('[aria-rowcount="11"]')).waitFor();
    // A lead comes in: r reloads the list.
    await app.server.ctx.db.query(`INSERT INTO leads (landing_id, source, data) VALUES ($1, 'sms', '{"nom": "Nouveau"}')`, [id]);
    await press(page, 'r');
    await grid(page).and(page.locator('[aria-rowcount="12"]')).waitFor();
    await press(page, '?');
    const help = page.getByRole('dialog', { name: 'Raccourcis clavier' });
    await help.getByText('Suppression définitive').waitFor();
    await help.getByText('Classer comme nouveau').waitFor();
    await press(page, 'Escape');
    expect(errors).toEqual([]);
  });

  it('runs an action on all N matching leads through the server, then on a filtered list', async () => {
    const id = await landingWithLeads('E2E Tous', 400);
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    await openLanding(page, id, 400);
    await press(page, 'Control+a');
    await page.getByText('Les 150 lignes chargées sont sélectionnées.').waitFor();
    await press(page, 'Control+a');
    await page.getByText('Les 400 résultats correspondants sont sélectionnés.').waitFor();
    await page.getByText('400 leads · 400 sélectionnés').waitFor();
    await press(page, 'm');
    await toast(page, 'Leads placés à la corbeille (400)');
    expect(await statusCounts(id)).toEqual({ trashed: 400 });
    await press(page, 'z');
    await toast(page, 'Action annulée');
    expect(await statusCounts(id)).toEqual({ new: 400 });

    // Nom3, Nom30…39, Nom300…399: 111 leads, applied 400 ms after typing.
    await grid(page).and(page.locator('[aria-rowcount="402"]')).waitFor();
    await grid(page).getByRole('searchbox', { name: 'Filtrer Nom' }).fill('Nom3');
    await grid(page).and(page.locator('[aria-rowcount="113"]')).waitFor();
    await press(page, 'Escape', 'Control+a', 'a');
    await toast(page, 'Leads archivés (111)');
    expect(await statusCounts(id)).toEqual({ new: 289, archived: 111 });
    expect(errors).toEqual([]);
  });

  it('shows production by department for the last 90 days, by climate zone on demand', async () => {
    // 120 fresh leads in Lozère make one row reach the success tone whatever the demo's spread.
    await app.server.ctx.db.query(
      `INSERT INTO leads (landing_id, source, data, departement, zone_climatique)
       SELECT 1, 'sms', jsonb_build_object('nom', 'Lozère' || g), '48', 'H2d' FROM generate_series(1, 120) g`,
    );
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff, '/landings_test/1?tab=production');
    // Today and 90 days before, as Paris calendar days (the browser runs in Paris time).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    const start = new Date(`${today}T12:00:00Z`);
    start.setUTCDate(start.getUTCDate() - 90);
    expect(await page.locator('input[type=hidden][name=stats-start]').inputValue()).toBe(start.toISOString().slice(0, 10));
    expect(await page.locator('input[type=hidden][name=stats-end]').inputValue()).toBe(today);
    const table = page.getByRole('region', { name: 'Production' }).getByRole('table');
    await table.getByRole('columnheader', { name: 'Département' }).waitFor();
    await table.locator('tbody tr').nth(1).waitFor();
    expect(await table.locator('tr.tone-success', { has: page.getByRole('rowheader', { name: '48', exact: true }) }).count()).toBe(1);
    await page.getByLabel('Affichage par zones climatiques').check();
    await table.getByRole('columnheader', { name: 'Zone climatique' }).waitFor();
    await table.getByRole('rowheader', { name: 'H1a' }).waitFor();
    // A landing without climate zones has no such checkbox.
    await page.goto('/landings_test/3?tab=stock');
    await page.getByRole('region', { name: 'En Stock' }).waitFor();
    expect(await page.getByLabel('Affichage par zones climatiques').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('keeps one landing checked in the Landings tab, and the header picker opens the same screen for the chosen ids', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff, '/landings_test/1?tab=landings');
    const only = page.getByRole('checkbox', { name: 'PAC Air-Eau' });
    await only.waitFor();
    expect(await only.isChecked()).toBe(true);
    expect(await only.isDisabled()).toBe(true);
    await page.locator('.leads-checkbox', { hasText: 'PAC Air-Air' }).click();
    await page.locator('.leads-checkbox', { hasText: 'PAC Air-Eau' }).click();
    expect(await only.isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Voir les résultats' }).click();
    await page.waitForURL(/\/landings_test\/2$/);
    await page.getByRole('heading', { level: 1, name: 'PAC Air-Air' }).waitFor();

    await page.getByRole('button', { name: /^PAC Air-Air.*Landings/ }).click();
    await page.getByRole('option', { name: 'Panneaux Solaires' }).click();
    await press(page, 'Escape');
    await page.waitForURL(/\/landings_test\/2,3$/);
    await page.getByRole('heading', { level: 1, name: 'PAC Air-Air - Panneaux Solaires' }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('lead view on a phone', () => {
  it('never scrolls sideways, on any tab', async () => {
    const { page, errors } = await app.page({ viewport: { width: 390, height: 844 } });
    await signIn(page, DEMO.staff);
    for (const tab of ['new', 'production', 'stock', 'landings', 'import']) {
      await page.goto(`/landings_test/1${tab === 'new' ? '' : `?tab=${tab}`}`);
      await page.getByRole('tabpanel').waitFor();
      await networkIdle(page);
      const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
      expect(widths.page, tab).toBeLessThanOrEqual(widths.view);
    }
    expect(errors).toEqual([]);
  });
});
