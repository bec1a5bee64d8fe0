// The administration screens in Chromium: accounts (with the invitation and 'Mot de passe
// oublié ?' read from a local SMTP server), exports and Taboola, by keyboard only, by mouse only
// and at phone size; axe-core on every screen, dialog and menu; a live language switch.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedLink, startSmtp } from '../api/smtp';
import { axeViolations, DEMO, focusKept, MOBILE, signIn, startApp, type App } from './harness';

let app: App;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  app = await startApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://console.example.test' });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

const db = () => app.server.ctx.db;
const toast = (page: Page, text: string | RegExp) => page.locator('.toasts').getByText(text).first().waitFor();

async function press(page: Page, ...keys: string[]) {
  for (const k of keys) await page.keyboard.press(k);
}

const focusedRole = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('role'));

async function accountOf(email: string) {
  const { rows } = await db().query<{ id: number; admin: boolean }>('SELECT id, admin FROM users WHERE email = $1', [email]);
  return rows[0];
}

/** The invitation or reset link of the last mail to `to`, opened on the test's server. */
async function linkOf(to: string, skip = 0) {
  const { url } = mailedLink(await smtp.waitFor(to, skip));
  return new URL(url).pathname + new URL(url).hash;
}

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/admin-ui-${name}.png` });

describe('accounts, keyboard only', () => {
  it('invites an account whose holder chooses a password and signs in; toggles its role, opens its exports and deletes it', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    await press(page, 'g', 'u');
    await page.waitForURL(/\/users$/);
    await page.getByRole('grid', { name: 'Comptes' }).locator('[role=row][data-index]').first().waitFor();
    expect(await focusedRole(page)).toBe('grid');

    // '2': the form, its first field ready; Enter sends.
    await press(page, '2');
    await page.getByRole('textbox', { name: 'Nom - Prénom' }).and(page.locator(':focus')).waitFor();
    await page.keyboard.type('Camille Clavier');
    await press(page, 'Tab');
    await page.keyboard.type('camille.clavier@test.local');
    await press(page, 'Enter');
    await toast(page, 'Compte créé, un email a été envoyé au client');
    await expect.poll(() => focusKept(page)).toBe(true);
    const created = await accountOf('camille.clavier@test.local');
    expect(created.admin).toBe(false);

    // The holder's link: choose and confirm a password, then signed in.
    const holder = await app.page();
    await holder.page.goto(await linkOf('camille.clavier@test.local'));
    await holder.page.getByRole('heading', { name: 'Bienvenue Camille Clavier, choisissez votre mot de passe' }).waitFor();
    await shot(holder.page, 'choose-password');
    expect(await axeViolations(holder.page)).toEqual([]);
    await holder.page.keyboard.type('un mot de passe très long');
    await press(holder.page, 'Tab');
    await holder.page.keyboard.type('un mot de passe très long');
    await press(holder.page, 'Enter');
    await holder.page.waitForSelector('nav.sidebar');
    await holder.page.waitForURL((u) => u.pathname === '/');
    await holder.page.close();

    // Back to the list: Escape leaves the form for the tabs, '1'; the name filter with '/', Escape to the rows, j to the account.
    await page.getByRole('textbox', { name: 'Nom - Prénom' }).and(page.locator(':focus')).waitFor();
    await press(page, 'Escape', '1');
    await page.getByRole('grid', { name: 'Comptes' }).and(page.locator(':focus')).waitFor();
    await press(page, '/');
    await page.keyboard.type('clavier');
    await press(page, 'Escape');
    await page.getByRole('grid', { name: 'Comptes' }).and(page.locator('[aria-rowcount="3"]')).waitFor();
    await press(page, 'j');
    await page.getByText('Camille Clavier · normal').waitFor();
    await press(page, 'a');
    await toast(page, 'Rôle modifié');
    await page.getByText('Camille Clavier · admin').waitFor();
    expect((await accountOf('camille.clavier@test.local')).admin).toBe(true);
    await press(page, 'n');
    await page.getByText('Camille Clavier · normal').waitFor();
    expect((await accountOf('camille.clavier@test.local')).admin).toBe(false);
    await expect.poll(() => focusKept(page)).toBe(true);

    // e: its exports.
    await press(page, 'e');
    await page.waitForURL(new RegExp(`/exports/${created.id}$`));
    await page.getByRole('heading', { name: 'Exports de Camille Clavier' }).waitFor();
    await page.goBack();
    await page.waitForURL(/\/users$/);
    await page.getByRole('grid', { name: 'Comptes' }).locator('[role=row][data-index]').first().waitFor();

    // Shift+Delete asks first; Tab to 'Supprimer', Enter.
    await page.getByRole('grid', { name: 'Comptes' }).focus();
    await press(page, '/');
    await page.keyboard.type('clavier');
    await press(page, 'Escape');
    await page.getByRole('grid', { name: 'Comptes' }).and(page.locator('[aria-rowcount="3"]')).waitFor();
    await press(page, 'j', 'Shift+Delete');
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Souhaitez-vous vraiment supprimer cet utilisateur ?').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await press(page, 'Tab', 'Enter');
    await toast(page, 'Utilisateur supprimé');
    expect(await accountOf('camille.clavier@test.local')).toBeUndefined();
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it("'Mot de passe oublié ?' answers the same for any address and mails a link to an existing one", async () => {
    const { page } = await app.page();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await page.waitForURL(/\/password\/forgot$/);
    await page.getByRole('textbox', { name: 'Email' }).fill('nobody@test.local');
    await page.keyboard.press('Enter');
    const neutral = page.getByRole('status');
    await neutral.waitFor();
    const unknownAnswer = await neutral.textContent();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'forgot');

    await page.goto('/password/forgot');
    const before = smtp.mails.filter((m) => m.to.includes(DEMO.staff.email)).length;
    await page.getByRole('textbox', { name: 'Email' }).fill(DEMO.staff.email);
    await page.keyboard.press('Enter');
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').textContent()).toBe(unknownAnswer);
    const link = await linkOf(DEMO.staff.email, before);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choisissez votre mot de passe' }).waitFor();
    // Too short, then two different ones: said beside the fields, nothing sent.
    await page.getByLabel('Nouveau mot de passe').fill('court');
    await page.getByText('Au moins 12 caractères', { exact: true }).waitFor();
    await page.getByLabel('Nouveau mot de passe').fill('demo-staff-nouveau');
    await page.getByLabel('Confirmer le mot de passe').fill('demo-staff-autre');
    await page.getByText('Les deux mots de passe ne sont pas identiques').waitFor();
    await page.getByLabel('Confirmer le mot de passe').fill('demo-staff-nouveau');
    await page.getByRole('button', { name: 'Enregistrer et se connecter' }).click();
    await page.waitForSelector('nav.sidebar');
    // The link is spent.
    await page.goto(link);
    await page.getByRole('alert').waitFor();
  });
});

describe('accounts, mouse only and phone size', () => {
  it('creates an account and changes its role with clicks, at 390×844', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin, '/users');
    await page.getByRole('tab', { name: 'Créer un compte' }).click();
    await page.getByRole('textbox', { name: 'Nom - Prénom' }).fill('Sacha Souris');
    await page.getByRole('textbox', { name: 'Email' }).fill('sacha.souris@test.local');
    await page.getByRole('button', { name: 'Créer', exact: true }).click();
    await toast(page, 'Compte créé, un email a été envoyé au client');
    await shot(page, 'users-create-mobile');
    await page.getByRole('tab', { name: 'Listes' }).click();
    const grid = page.getByRole('grid', { name: 'Comptes' });
    await grid.getByRole('gridcell', { name: 'Sacha Souris' }).click();
    await page.getByText('Sacha Souris · normal').waitFor();
    await page.getByRole('button', { name: /Attribuer le rôle admin/ }).click();
    await toast(page, 'Rôle modifié');
    expect((await accountOf('sacha.souris@test.local')).admin).toBe(true);
    await page.getByRole('button', { name: /Renvoyer l'invitation/ }).click();
    await toast(page, 'Invitation envoyée');
    await shot(page, 'users-list-mobile');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/** A reinjectable export of the demo: its id and how many of its leads are still extracted under it. */
async function reinjectableExport() {
  const { rows } = await db().query<{ id: number; n: number }>(
    `SELECT e.id, count(l.id)::int AS n FROM exports e JOIN leads l ON l.export_id = e.id AND l.entry_status = 'extracted'
      WHERE NOT e.big_export GROUP BY e.id ORDER BY e.created_at DESC, e.id DESC LIMIT 1`,
  );
  return rows[0];
}

const exportsGrid = (page: Page) => page.getByRole('grid', { name: 'Exports' });

describe('exports', () => {
  it('keyboard only: re-injects the focused export after the confirmation, then generates a custom export with its progress', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    await press(page, 'g', 'e');
    await page.waitForURL(/\/exports\/0$/);
    await exportsGrid(page).locator('[role=row][data-index]').first().waitFor();
    expect(await focusedRole(page)).toBe('grid');
    const { rows: sum } = await db().query<{ n: number }>('SELECT coalesce(sum(count), 0)::int AS n FROM exports');
    await page.getByText(`Total lead sélection : ${sum[0].n.toLocaleString('fr-FR')}`).waitFor();
    await shot(page, 'exports');
    expect(await axeViolations(page)).toEqual([]);

    // The newest reinjectable export: found by its row, reached with j from the first row (focused on arrival).
    const target = await reinjectableExport();
    const index = await exportsGrid(page)
      .locator('[role=row][data-index]')
      .evaluateAll(
        // The exports list selects nothing: no check column, the id is the first cell.
        (rows, id) => rows.findIndex((r) => r.querySelectorAll('[role=gridcell]')[0]?.textContent === String(id)),
        target.id,
      );
    expect(index).toBeGreaterThanOrEqual(0);
    await press(page, ...Array(index).fill('j'), 'r');
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Souhaitez-vous vraiment réinjecter les leads ?').waitFor();
    await confirm.getByRole('button', { name: 'Annuler' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await press(page, 'Tab', 'Enter');
    await toast(page, `Leads insérés (${target.n.toLocaleString('fr-FR')})`);
    const { rows: left } = await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM leads WHERE export_id = $1 AND entry_status = 'extracted'`, [
      target.id,
    ]);
    expect(left[0].n).toBe(0);
    await expect.poll(() => focusKept(page)).toBe(true);

    // p: the custom export's panel, its landings first (Enter opens, Enter picks, Escape closes).
    await press(page, 'p');
    await page.locator('[data-field=big-landings] button:focus').waitFor();
    await press(page, 'Enter');
    await page.getByRole('listbox').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await press(page, 'Enter', 'Escape');
    // Statuses keep 'Nouveau', the dates the last 90 days: b generates.
    await press(page, 'b');
    await page
      .getByRole('progressbar', { name: "Progression de l'export personnalisé" })
      .or(page.getByText(/Export personnalisé prêt/))
      .first()
      .waitFor();
    await toast(page, /Export disponible \([\d\s]+ leads\)/);
    await exportsGrid(page).getByRole('gridcell', { name: 'Personnalisé' }).first().waitFor();
    await shot(page, 'exports-big');
    const { rows: big } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM exports WHERE big_export');
    expect(big[0].n).toBe(1);
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('mouse only at phone size: filters by user, downloads a file, and shows the refusal of a second custom export', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin, '/exports/0');
    await exportsGrid(page).locator('[role=row][data-index]').first().waitFor();
    // The user filter is the route's parameter.
    await page.locator('[data-field=user] button').click();
    await page.getByRole('listbox').getByRole('option', { name: 'Camille Martin' }).click();
    const staff = await accountOf(DEMO.staff.email);
    await page.waitForURL(new RegExp(`/exports/${staff.id}$`));
    await page.getByRole('heading', { name: 'Exports de Camille Martin' }).waitFor();
    const { rows: mine } = await db().query<{ n: number; leads: number }>(
      'SELECT count(*)::int AS n, coalesce(sum(count), 0)::int AS leads FROM exports WHERE user_id = $1',
      [staff.id],
    );
    await exportsGrid(page)
      .and(page.locator(`[aria-rowcount="${mine[0].n + 1}"]`))
      .waitFor();
    await page.getByText(`Total lead sélection : ${mine[0].leads.toLocaleString('fr-FR')}`).waitFor();

    // Each file is a link; it answers the file.
    const link = exportsGrid(page).locator('a[download]').first();
    // Absolute from PUBLIC_URL (the test's is not reachable): its path on the test's server.
    const href = new URL((await link.getAttribute('href'))!);
    expect(href.origin).toBe('https://console.example.test');
    expect((await page.request.get(href.pathname)).status()).toBe(200);
    await shot(page, 'exports-mobile');
    expect(await axeViolations(page)).toEqual([]);

    // Another custom export of this admin is running (started in another tab): the request is refused, said clearly.
    const admin = await accountOf(DEMO.admin.email);
    const { rows: elsewhere } = await db().query<{ id: number }>(
      `INSERT INTO big_exports (user_id, landing_ids, statuses, start_day, end_day, book_type, state, total, written)
       VALUES ($1, '{1}', '{new}', '2020-01-01', '2030-12-31', 'csv', 'running', 1000, 250) RETURNING id`,
      [admin.id],
    );
    await page.getByRole('button', { name: 'Générer un export personnalisé' }).click();
    await page.locator('[data-field=big-landings] button').click();
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.keyboard.press('Escape');
    await page
      .locator('[data-big-export]')
      .getByRole('button', { name: /^Générer/ })
      .click();
    await page
      .locator('.admin-section')
      .getByRole('alert')
      .getByText(/déjà en cours de génération/)
      .waitFor();
    // The screen follows the running one instead.
    await page.getByText('Export personnalisé : 250 / 1 000 leads (25 %)').waitFor();
    await shot(page, 'exports-refusal-mobile');
    expect(await axeViolations(page)).toEqual([]);
    await db().query(`UPDATE big_exports SET state = 'failed', error = 'arrêté par le test', finished_at = now() WHERE id = $1`, [elsewhere[0].id]);
    expect(errors).toEqual([]);
  });
});

const taboolaCodes = async (campaign: string) =>
  (
    await db().query<{ targeting_type: string; postal_codes: string[] }>('SELECT targeting_type, postal_codes FROM taboola_campaigns WHERE name = $1', [
      campaign,
    ])
  ).rows[0];

async function xlsxOf(codes: string[]): Promise<Buffer> {
  const XLSX = await import('xlsx');
  const sheet = XLSX.utils.aoa_to_sheet([['Code postal'], ...codes.map((c) => [c])]);
  // Text cells: '01000' keeps its zero.
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Codes');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** The file chosen as a mouse user does: the command's button, then the browser's file chooser. */
async function chooseXlsx(page: Page, codes: string[]) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: /Choisir un fichier xlsx/ }).click()]);
  await chooser.setFiles({ name: 'codes.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await xlsxOf(codes) });
}

describe('Taboola', () => {
  it('keyboard and palette: account, campaign, departments sent as INCLUDE, read back; the sandbox is said', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    await press(page, 'g', 't');
    await page.waitForURL(/\/taboola$/);
    await page
      .getByRole('note')
      .getByText(/Bac à sable/)
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The palette lists the accounts.
    await press(page, 'Control+k');
    await page.getByRole('dialog').getByRole('combobox').waitFor();
    await page.keyboard.type('solaire-rhone-alpes');
    // The Taboola account by its id (a customer has the same name).
    await page
      .getByRole('dialog')
      .getByRole('option', { name: /Solaire Rhône-Alpes/ })
      .filter({ hasText: 'solaire-rhone-alpes' })
      .waitFor();
    await press(page, 'Enter');
    await page.waitForURL(/account=solaire-rhone-alpes/);
    // c: the campaign's select; Enter opens, arrows, Enter picks.
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.locator('[data-field=account] button').getByText('Solaire Rhône-Alpes').waitFor();
    await page.locator('[data-field=campaign] button:enabled').waitFor();
    await press(page, 'c');
    await page.locator('[data-field=campaign] button:focus').waitFor();
    await press(page, 'Enter');
    await page.getByRole('listbox').getByRole('option', { name: 'PV Lyon métropole' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.type('PV Lyon');
    await press(page, 'Enter');
    await page.waitForURL(/campaign=/);
    await page.getByText('Tous les codes postaux (ALL)').waitFor();
    // d: the departments; Enter fills the list; the palette sends.
    await page.locator('body').press('Escape');
    await page.locator('[data-field=campaign] button').focus();
    await press(page, 'd');
    await page.locator('[data-taboola-departements]:focus').waitFor();
    await page.keyboard.type('69');
    await press(page, 'Enter');
    await page.getByText(/codes postaux prêts à envoyer/).waitFor();
    await press(page, 'Control+k');
    await page.keyboard.type('envoyer le ciblage');
    await press(page, 'Enter');
    await toast(page, 'Codes postaux mis à jour');
    await page.getByText(/codes postaux ciblés \(INCLUDE\)/).waitFor();
    const sent = await taboolaCodes('PV Lyon métropole');
    expect(sent.targeting_type).toBe('INCLUDE');
    expect(sent.postal_codes).toContain('69001');
    expect(sent.postal_codes.every((c) => c.startsWith('69'))).toBe(true);
    // The PAC map's saved selection (Corse-du-Sud), from the palette: its department's codes.
    await db().query(
      `INSERT INTO production_selections (category, departements) VALUES ('pac', '{2A}') ON CONFLICT (category) DO UPDATE SET departements = '{2A}'`,
    );
    await press(page, 'Control+k');
    await page.keyboard.type('selection de la carte pac');
    await page
      .getByRole('dialog')
      .getByRole('option', { name: /Cibler la sélection de la carte : Production PAC/ })
      .waitFor();
    await press(page, 'Enter');
    await toast(page, /\d+ codes postaux pour 2A/);
    const ready = await page.getByRole('list', { name: 'Codes postaux à envoyer' }).getByRole('listitem').allTextContents();
    expect(ready.length).toBeGreaterThan(10);
    expect(ready.every((c) => c.startsWith('20'))).toBe(true);
    await shot(page, 'taboola');
    expect(await axeViolations(page)).toEqual([]);
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('mouse only at phone size: an xlsx with an unknown code is refused whole, a good one sent; another account clears the campaign', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin, '/taboola');
    await page.locator('[data-field=account] button').click();
    await page.getByRole('listbox').getByRole('option', { name: 'ÉcoHabitat Sud' }).click();
    await page.locator('[data-field=campaign] button').click();
    await page.getByRole('listbox').getByRole('option', { name: 'PAC Gard – printemps' }).click();
    await page.getByText(/codes postaux ciblés \(INCLUDE\)/).waitFor();
    const before = await taboolaCodes('PAC Gard – printemps');

    await page.getByText('INCLUDE : seulement ceux de la liste').click();
    await chooseXlsx(page, ['01000', '30000', '99999']);
    await page.getByText('codes.xlsx').waitFor();
    await page.getByRole('button', { name: /Envoyer le ciblage/ }).click();
    await page.getByText("1 code n'est pas un code postal français : rien n'a été envoyé").first().waitFor();
    await page.getByRole('list', { name: 'Codes inconnus' }).getByText('99999').waitFor();
    expect(await taboolaCodes('PAC Gard – printemps')).toEqual(before);
    await shot(page, 'taboola-unknown-mobile');
    expect(await axeViolations(page)).toEqual([]);

    await chooseXlsx(page, ['01000', '30000']);
    await page.getByRole('button', { name: /Envoyer le ciblage/ }).click();
    // 01000 is outside the Gard: the campaign widens, confirmed first.
    await page.getByRole('alertdialog').getByRole('button', { name: 'Élargir et envoyer' }).click();
    await toast(page, 'Codes postaux mis à jour');
    await page.getByText('2 codes postaux ciblés (INCLUDE)').waitFor();
    expect((await taboolaCodes('PAC Gard – printemps')).postal_codes.sort()).toEqual(['01000', '30000']);
    await page.getByRole('list', { name: 'Ciblage actuel' }).getByText('01000').waitFor();

    // Another account: no campaign, no codes.
    await page.locator('[data-field=account] button').click();
    await page.getByRole('listbox').getByRole('option', { name: 'Isolation Nationale' }).click();
    await page.waitForURL((u) => u.searchParams.get('account') === 'isolation-nationale' && !u.searchParams.has('campaign'));
    await page.getByText('Choisissez une campagne pour voir ses codes postaux.').waitFor();
    expect(await page.getByRole('list', { name: 'Ciblage actuel' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('languages', () => {
  it('switches the administration screens to English live, and back', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.admin, '/users');
    await page.getByRole('tab', { name: 'Listes' }).waitFor();
    await page.getByRole('grid', { name: 'Comptes' }).getByRole('gridcell', { name: 'Admin Démo' }).click();
    await page.getByRole('button', { name: /Language FR|Langue FR/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.getByRole('tab', { name: 'Lists' }).waitFor();
    await page.getByRole('button', { name: /Delete the user/ }).waitFor();
    await page.getByRole('columnheader', { name: /Role/ }).first().waitFor();
    await page.goto('/exports/0');
    await page.getByText(/Total leads of the selection/).waitFor();
    await page.getByRole('button', { name: 'Generate a custom export' }).waitFor();
    await page.goto('/taboola');
    await page.getByText(/Sandbox: no Taboola credentials/).waitFor();
    await shot(page, 'taboola-en');
  });
});

describe('context menus on rows', () => {
  it("every list's rows open its actions on a right click or Shift+F10, on the row clicked, with no axe violation", async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const { rows } = await db().query<{ id: number }>('SELECT id FROM rules ORDER BY id LIMIT 1');
    const lists: [string, string, string][] = [
      ['/customers', 'Clients', 'Modifier le client'],
      ['/customers/rules/0', 'Règles', 'Modifier la règle'],
      [`/customers/rules/rapports/${rows[0]!.id}`, 'Rapports quotidiens', '^Télécharger$'],
      ['/users', 'Comptes', "Supprimer l'utilisateur"],
      ['/exports/0', 'Exports', 'Ré-insérer les leads'],
    ];
    for (const [path, gridName, item] of lists) {
      await page.goto(path);
      const grid = page.getByRole('grid', { name: gridName });
      const second = grid.locator('.lg-row[data-index="1"]');
      const first = grid.locator('.lg-row[data-index="0"]');
      const row = (await second.count()) ? second : first;
      await row.waitFor();
      await row.locator('[role=gridcell]').nth(0).click({ button: 'right' });
      const menu = page.getByRole('menu');
      await menu.waitFor();
      expect(await menu.getByRole('menuitem', { name: new RegExp(item) }).count(), path).toBe(1);
      expect(await row.getAttribute('class'), path).toContain('is-focused');
      expect(await axeViolations(page), path).toEqual([]);
      await press(page, 'Escape');
      await menu.waitFor({ state: 'detached' });
      await expect.poll(() => focusKept(page)).toBe(true);
      await grid.focus();
      await press(page, 'Shift+F10');
      await menu.waitFor();
      await press(page, 'Escape');
      await menu.waitFor({ state: 'detached' });
      await expect.poll(() => focusedRole(page), { message: path }).toBe('grid');
    }
    expect(errors).toEqual([]);
  });
});
