// The Lives screens in Chromium: customers, their rules and the rules' daily reports, by keyboard
// only, by mouse only and at phone size; axe on every screen, dialog and menu; a live language switch.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, focusKept, MOBILE, networkIdle, signIn, startApp, type App } from './harness';
import { customerCreateRequest } from '../../src/api/customers/contract';
import { ruleCreateRequest, weekdays } from '../../src/api/rules/contract';
import { createCustomer } from '../../server/services/lives/customers';
import { createRule } from '../../server/services/lives/rules';
import { createLanding } from './landing-fixture';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/lives-ui-${name}.png` });
const toast = (page: Page, text: string | RegExp) => page.locator('.toasts').getByText(text).first().waitFor();
const focusRole = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName.toLowerCase());
const focusLabel = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.id ?? '');

async function press(page: Page, ...keys: string[]) {
  for (const k of keys) await page.keyboard.press(k);
}

/** Leads sent through the public intake of a landing, as a landing page would. */
async function intake(key: string, n: number, from = 1) {
  for (let i = from; i < from + n; i++) {
    const res = await fetch(`${app.url}/api/intake/${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        nom: `Live${i}`,
        prenom: 'Test',
        telephone: `07${String(i).padStart(8, '0')}`,
        email: `live${i}-${key}@test.fr`,
        code_postal: '30000',
      }),
    });
    expect(res.status).toBe(201);
  }
}

describe('lives, keyboard only', () => {
  it('creates a customer (and is told of a duplicate email), creates a rule, watches it fill live, pauses, resumes, reads its report and downloads it, deletes it', async () => {
    const landing = await createLanding(app.server.ctx.db, 'E2E Lives Clavier');
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);

    // g c: the customers' grid has the keys.
    await press(page, 'g', 'c');
    await page.waitForURL(/\/customers$/);
    await page.getByRole('grid', { name: 'Clients' }).getByRole('gridcell').first().waitFor();
    expect(await focusRole(page)).toBe('grid');
    await shot(page, 'customers');

    // 2: the form, the cursor in 'Nom - Prénom'; Enter creates.
    await press(page, '2');
    await page.getByRole('textbox', { name: 'Nom - Prénom', exact: true }).waitFor();
    expect(await focusLabel(page)).toBe('customer-name');
    await page.keyboard.type('Chauffage Clavier');
    await press(page, 'Tab');
    await page.keyboard.type('clavier@chauffage.fr');
    await press(page, 'Enter');
    await toast(page, 'Client ajouté');
    expect(await page.getByRole('textbox', { name: 'Nom - Prénom', exact: true }).inputValue()).toBe('');
    // The same email again: a conflict, said on the email field.
    await page.keyboard.type('Chauffage Doublon');
    await press(page, 'Tab');
    await page.keyboard.type('CLAVIER@chauffage.fr');
    await press(page, 'Enter');
    await page.getByText('Un client utilise déjà cet email.', { exact: true }).first().waitFor();
    expect(await page.getByRole('textbox', { name: 'Email', exact: true }).getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'customer-duplicate');

    // Escape leaves the field; the palette finds the new customer and opens its rules.
    await press(page, 'Escape');
    expect(await focusRole(page)).toBe('tab');
    await press(page, 'Control+k');
    await page.keyboard.type('chauffage clavier');
    await page.getByRole('option', { name: /^Chauffage Clavier/ }).waitFor();
    await press(page, 'Enter');
    await page.waitForURL(/\/customers\/rules\/\d+$/);
    const customerId = Number(page.url().split('/').pop());
    await page.getByRole('heading', { level: 1, name: 'Règles · Chauffage Clavier' }).waitFor();
    await expect.poll(() => focusKept(page)).toBe(true);

    // 2: the rule form, for this customer. Sent empty, it says what is missing.
    await press(page, '2');
    await page.getByRole('heading', { name: 'Créer une règle' }).waitFor();
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(await page.getByLabel('Leads par jour').inputValue()).toBe('20');
    expect(await page.getByLabel('Heure de début').inputValue()).toBe('00:00');
    expect(await page.getByLabel('Heure de fin').inputValue()).toBe('23:59');
    await page.getByLabel('Nom de la règle').focus();
    await press(page, 'Enter');
    await toast(page, 'Merci de vérifier les champs');
    await page.getByText('Nom requis').waitFor();
    await page.getByText('Choisissez au moins une landing').waitFor();
    await page.getByText('Cochez au moins un jour').waitFor();
    await shot(page, 'rule-invalid');

    await page.keyboard.type('Clavier Gard');
    // Landings: Tab to the select, open it, type to find, Enter to choose, Escape to close.
    await press(page, 'Tab', 'ArrowDown');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.type('E2E Lives');
    await press(page, 'Enter');
    await shot(page, 'rule-landings');
    expect(await axeViolations(page)).toEqual([]);
    await press(page, 'Escape');
    await page.getByRole('button', { name: 'E2E Lives Clavier Landings' }).waitFor();
    // Postal codes: 30 and 34000 added, a bad one refused with its text.
    await press(page, 'Tab');
    await page.keyboard.type('30, 34000 9x9');
    await press(page, 'Enter');
    await page.getByText(/invalide\s: 9X9|invalide\s: 9x9/).waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    // Days: one group (docs/keyboard.md), its preset 'Tous les jours', then through the days' single tab stop and the hours.
    await press(page, 'Tab', 'Tab', 'Space');
    await press(page, 'Tab', 'Tab', 'Tab', 'Tab');
    expect(await focusLabel(page)).toBe('rule-leads_number');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('3');
    await press(page, 'Enter');
    await toast(page, 'Règle ajoutée');
    // The form starts again from its defaults, for the same customer.
    expect(await page.getByLabel('Nom de la règle').inputValue()).toBe('');
    expect(await page.getByLabel('Leads par jour').inputValue()).toBe('20');
    await page.getByRole('tabpanel').getByRole('button', { name: 'Chauffage Clavier Client' }).waitFor();
    const rule = (
      await app.server.ctx.db.query<{ id: number; zip: string[]; leads_number: number; customer_id: number }>(
        `SELECT id, zip, leads_number, customer_id FROM rules WHERE name = 'Clavier Gard'`,
      )
    ).rows[0];
    expect(rule).toMatchObject({ zip: ['30', '34000'], leads_number: 3, customer_id: customerId });

    // Escape leaves the field for the tabs, 1 shows the list: leads arrive and the new rule's bar fills without a reload.
    await press(page, 'Escape');
    expect(await focusRole(page)).toBe('tab');
    await press(page, '1');
    const grid = page.getByRole('grid', { name: 'Règles' });
    await grid.getByRole('gridcell', { name: 'Clavier Gard', exact: true }).waitFor();
    expect(await focusRole(page)).toBe('grid');
    await page.locator(`[data-fill="${rule.id}"]`).getByText('0/3 j').waitFor();
    await intake(landing.key, 2);
    await page.locator(`[data-fill="${rule.id}"]`).getByText('2/3 j').waitFor({ timeout: 15_000 });
    await shot(page, 'rules-live');

    // p pauses, Shift+P resumes.
    await press(page, 'p');
    await toast(page, 'Règle mise en pause');
    await grid.getByRole('gridcell', { name: 'En pause' }).waitFor();
    await press(page, 'Shift+P');
    await toast(page, 'Règle reprise');
    await grid.getByRole('gridcell', { name: 'Active' }).waitFor();
    expect(await focusRole(page)).toBe('grid');

    // Enter opens the rule's reports: today's report, its delivery log, the download dialog (pdf first).
    await press(page, 'Enter');
    await page.waitForURL(new RegExp(`/customers/rules/rapports/${rule.id}$`));
    const reports = page.getByRole('grid', { name: 'Rapports quotidiens' });
    await reports.getByRole('gridcell', { name: '2', exact: true }).first().waitFor();
    expect(await focusRole(page)).toBe('grid');
    await page
      .getByRole('region', { name: 'Journal des livraisons' })
      .getByText(/clavier@chauffage\.fr/)
      .first()
      .waitFor({ timeout: 15_000 });
    await shot(page, 'reports');
    await press(page, 'd');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Souhaitez-vous télécharger le rapport ?').waitFor();
    expect(await dialog.getByLabel('Format').inputValue()).toBe('pdf');
    await shot(page, 'report-dialog');
    expect(await axeViolations(page)).toEqual([]);
    const download = page.waitForEvent('download');
    await press(page, 'Enter');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\d{4}-\d{2}-\d{2}\.pdf$/);
    await toast(page, /Rapport téléchargé/);
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusKept(page)).toBe(true);

    // Back to the customer's rules from the palette, then Shift+Delete, confirmed.
    await press(page, 'Control+k');
    await page.keyboard.type('regles du client');
    await press(page, 'Enter');
    await page.waitForURL(new RegExp(`/customers/rules/${customerId}$`));
    await grid.getByRole('gridcell', { name: 'Clavier Gard', exact: true }).waitFor();
    await press(page, 'Shift+Delete');
    await page.getByRole('alertdialog').getByText('Souhaitez-vous vraiment supprimer cette règle ?').waitFor();
    await press(page, 'Tab', 'Enter');
    await toast(page, 'Règle supprimée');
    await grid.getByRole('gridcell', { name: 'Clavier Gard', exact: true }).waitFor({ state: 'detached' });
    await expect.poll(() => focusKept(page)).toBe(true);

    // f opens the customer filter on its search: 'tous', Enter shows every customer's rules.
    await press(page, 'f');
    await page.getByRole('searchbox', { name: 'Chercher un client' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.type('tous');
    await press(page, 'Enter');
    await page.waitForURL(/\/customers\/rules\/0$/);
    await page.getByRole('heading', { level: 1, name: 'Règles' }).waitFor();
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('lives, mouse only', () => {
  it('creates a customer, opens its rules from its row, creates a rule by clicks, pauses and resumes it, downloads a csv report, filters and deletes', async () => {
    const landing = await createLanding(app.server.ctx.db, 'E2E Lives Souris');
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const sidebar = page.locator('nav.sidebar');
    await sidebar.getByRole('button', { name: /^Lives/ }).click();
    await sidebar.getByRole('link', { name: 'Clients' }).click();
    await page.waitForURL(/\/customers$/);

    await page.getByRole('tab', { name: 'Créer un client' }).click();
    await page.getByRole('textbox', { name: 'Nom - Prénom', exact: true }).fill('Solaire Souris');
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill('souris@solaire.fr');
    await page.getByRole('button', { name: 'Créer', exact: true }).click();
    await toast(page, 'Client ajouté');

    await page.getByRole('tab', { name: 'Listes des clients' }).click();
    const customers = page.getByRole('grid', { name: 'Clients' });
    const row = customers.getByRole('row').filter({ hasText: 'souris@solaire.fr' });
    await row.getByRole('button', { name: 'Règles' }).click();
    await page.waitForURL(/\/customers\/rules\/[1-9]\d*$/);
    const customerPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { level: 1, name: 'Règles · Solaire Souris' }).waitFor();

    await page.getByRole('tab', { name: 'Créer une règle' }).click();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Solaire Souris Client' }).waitFor();
    await page.getByLabel('Nom de la règle').fill('Souris partout');
    await page.getByRole('button', { name: /Choisir les landings/ }).click();
    await page.getByRole('option', { name: 'E2E Lives Souris' }).click();
    await page.getByRole('heading', { name: 'Créer une règle', level: 2 }).click({ force: true });
    await page.getByRole('button', { name: 'E2E Lives Souris Landings' }).waitFor();
    for (const day of ['Lundi', 'Mardi', 'Mercredi', 'Jeudi', 'Vendredi', 'Samedi', 'Dimanche']) await page.getByText(day, { exact: true }).click();
    await page.getByLabel('Leads par jour').fill('10');
    await shot(page, 'mouse-rule-form');
    await page.getByRole('button', { name: 'Créer la règle' }).click();
    await toast(page, 'Règle ajoutée');
    const ruleId = (await app.server.ctx.db.query<{ id: number }>(`SELECT id FROM rules WHERE name = 'Souris partout'`)).rows[0].id;
    await intake(landing.key, 1, 100);

    await page.getByRole('tab', { name: 'Règles', exact: true }).click();
    const rules = page.getByRole('grid', { name: 'Règles' });
    const ruleRow = rules.getByRole('row').filter({ hasText: 'Souris partout' });
    await ruleRow.getByRole('button', { name: 'Mettre en pause' }).click();
    await toast(page, 'Règle mise en pause');
    await ruleRow.getByRole('button', { name: 'Reprendre' }).click();
    await toast(page, 'Règle reprise');
    await page.locator(`[data-fill="${ruleId}"]`).getByText('1/10 j').waitFor({ timeout: 15_000 });

    await ruleRow.getByRole('button', { name: 'Rapports' }).click();
    await page.waitForURL(new RegExp(`/rapports/${ruleId}$`));
    const reports = page.getByRole('grid', { name: 'Rapports quotidiens' });
    await reports.getByRole('button', { name: 'Télécharger' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Format').selectOption('csv');
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Télécharger' }).click();
    expect((await download).suggestedFilename()).toMatch(/\d{4}-\d{2}-\d{2}\.csv$/);
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Règles du client' }).click();
    await page.waitForURL(`**${customerPath}`);
    // The filter's clear button shows every customer's rules; choosing one in its list narrows them again.
    await page.getByRole('button', { name: 'Afficher les règles de tous les clients' }).click();
    await page.waitForURL(/\/customers\/rules\/0$/);
    await page.getByRole('button', { name: /Tous les clients/ }).click();
    await page.getByRole('searchbox', { name: 'Chercher un client' }).fill('souris');
    await page.getByRole('option', { name: 'Solaire Souris' }).waitFor();
    await shot(page, 'mouse-filter');
    // Right after a keystroke the search box may still point at an option the filter just removed
    // (react-aria settles it on the next frame): axe must find the settled list clean.
    await expect.poll(() => axeViolations(page), { timeout: 5000 }).toEqual([]);
    await page.getByRole('option', { name: 'Solaire Souris' }).click();
    await page.waitForURL(`**${customerPath}`);
    await rules.getByRole('row').filter({ hasText: 'Souris partout' }).getByRole('button', { name: 'Supprimer la règle' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Souhaitez-vous vraiment supprimer cette règle ?').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Supprimer' }).click();
    await toast(page, 'Règle supprimée');
    await rules.getByRole('row').filter({ hasText: 'Souris partout' }).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});

/** A name no other run of the suite has used (tests that create rows never collide). */
const unique = (name: string) => `${name} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function customerByEmail(email: string) {
  return (
    await app.server.ctx.db.query<{ id: number; name: string; active: boolean; webhook_url: string | null; webhook_secret: string | null }>(
      'SELECT id, name, active, webhook_url, webhook_secret FROM customers WHERE email = $1',
      [email],
    )
  ).rows[0];
}

/** A customer with a rule taking every lead of a new landing, every day, all day, made by the server's own services. */
async function customerWithRule(label: string, cap = 5) {
  const db = app.server.ctx.db;
  const landing = await createLanding(db, unique(`E2E ${label}`));
  const email = `${label.toLowerCase().replace(/\W+/g, '-')}-${Date.now().toString(36)}@e2e.fr`;
  const admin = (await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [DEMO.admin.email])).rows[0].id;
  const customer = await createCustomer(db, admin, customerCreateRequest.parse({ name: unique(label), email }));
  const days = Object.fromEntries(weekdays.map((d) => [d, true]));
  const rule = await createRule(
    db,
    admin,
    ruleCreateRequest.parse({ name: unique(`Règle ${label}`), customer_id: customer.id, landings: [landing.id], leads_number: cap, ...days }),
  );
  return { landing, email, customerId: customer.id, rule };
}

describe('lives, editing customers and rules', () => {
  it('by keyboard: e edits the focused customer (webhook, secret), p pauses it; e edits a rule in the creation form', async () => {
    const { email, customerId, rule } = await customerWithRule('Edition Clavier');
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin, '/customers');
    const customers = page.getByRole('grid', { name: 'Clients' });
    await customers.getByRole('searchbox', { name: 'Filtrer Email' }).fill(email);
    await customers.getByRole('gridcell', { name: email }).waitFor();
    await expect.poll(() => customers.getByRole('row').count()).toBe(3);
    await customers.focus();

    // e: the dialog on the focused customer, the cursor in its name.
    await press(page, 'e');
    const dialog = page.getByRole('dialog', { name: 'Modifier le client' });
    await dialog.waitFor();
    expect(await focusLabel(page)).toBe('customer-edit-name');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('Édition Clavier SARL');
    // A webhook that is not http(s) is refused on its field, nothing is sent.
    await dialog.getByRole('textbox', { name: /Webhook/ }).focus();
    await page.keyboard.type('ftp://crm.example/leads');
    await press(page, 'Enter');
    await dialog.getByText('Adresse de webhook invalide (http ou https)').waitFor();
    expect((await customerByEmail(email)).name).not.toBe('Édition Clavier SARL');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('https://crm.example/leads');
    await shot(page, 'customer-edit');
    expect(await axeViolations(page)).toEqual([]);
    await press(page, 'Enter');
    await toast(page, 'Client modifié');
    await dialog.waitFor({ state: 'detached' });
    const saved = await customerByEmail(email);
    expect(saved).toMatchObject({ id: customerId, name: 'Édition Clavier SARL', webhook_url: 'https://crm.example/leads' });
    expect(saved.webhook_secret).toMatch(/^[\w-]{20,}$/);
    // The focus is back on the list, not lost to the page.
    await expect.poll(() => focusKept(page)).toBe(true);
    await customers.getByRole('gridcell', { name: 'Édition Clavier SARL' }).waitFor();

    // The secret is shown to hand over; a new one replaces it after a confirmation.
    await customers.focus();
    await press(page, 'e');
    await dialog.waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Secret de signature du webhook' }).inputValue()).toBe(saved.webhook_secret);
    await dialog.getByRole('button', { name: 'Nouveau secret' }).focus();
    await press(page, 'Enter');
    await page
      .getByRole('alertdialog')
      .getByText(/Un nouveau secret remplace l'ancien/)
      .waitFor();
    await press(page, 'Tab', 'Enter');
    await toast(page, 'Nouveau secret enregistré');
    await expect.poll(async () => (await customerByEmail(email)).webhook_secret).not.toBe(saved.webhook_secret);
    expect(await dialog.getByRole('textbox', { name: 'Secret de signature du webhook' }).inputValue()).toBe((await customerByEmail(email)).webhook_secret);
    await press(page, 'Escape');
    await dialog.waitFor({ state: 'detached' });

    // p pauses the customer, Shift+P resumes it.
    await customers.focus();
    await press(page, 'p');
    await toast(page, /est en pause/);
    await customers.getByRole('gridcell', { name: 'En pause', exact: true }).waitFor();
    expect((await customerByEmail(email)).active).toBe(false);
    await press(page, 'Shift+P');
    await toast(page, /reçoit de nouveau des leads/);
    await customers.getByRole('gridcell', { name: 'Actif', exact: true }).waitFor();

    // Enter opens its rules; e edits the focused rule in the creation's form.
    await customers.focus();
    await press(page, 'Enter');
    await page.waitForURL(new RegExp(`/customers/rules/${customerId}$`));
    const rules = page.getByRole('grid', { name: 'Règles' });
    await rules.getByRole('gridcell', { name: rule.name, exact: true }).waitFor();
    await rules.focus();
    await press(page, 'e');
    const ruleDialog = page.getByRole('dialog', { name: 'Modifier la règle' });
    await ruleDialog.waitFor();
    expect(await focusLabel(page)).toBe('rule-edit-name');
    expect(await ruleDialog.getByLabel('Leads par jour').inputValue()).toBe('5');
    expect(await ruleDialog.getByRole('checkbox', { name: 'Dimanche' }).isChecked()).toBe(true);
    await ruleDialog.getByLabel('Leads par jour').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('0');
    await press(page, 'Enter');
    await ruleDialog.getByText('Nombre de leads par jour entre 1 et 10 000').waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('12');
    await ruleDialog.getByLabel('Codes postaux ou départements').focus();
    await page.keyboard.type('30 2a');
    await press(page, 'Enter');
    await shot(page, 'rule-edit');
    expect(await axeViolations(page)).toEqual([]);
    await ruleDialog.getByLabel('Nom de la règle').focus();
    await press(page, 'Enter');
    await toast(page, 'Règle modifiée');
    await ruleDialog.waitFor({ state: 'detached' });
    const edited = (
      await app.server.ctx.db.query<{ leads_number: number; zip: string[]; sunday: boolean; active: boolean }>(
        'SELECT leads_number, zip, sunday, active FROM rules WHERE id = $1',
        [rule.id],
      )
    ).rows[0];
    expect(edited).toEqual({ leads_number: 12, zip: ['30', '2A'], sunday: true, active: true });
    await rules.getByRole('gridcell', { name: '30, 2A' }).waitFor();
    await expect.poll(() => focusKept(page)).toBe(true);
    // The closed dialog gives the focus back to the list it was opened from, saved or not.
    await expect.poll(() => focusRole(page)).toBe('grid');
    await press(page, 'e');
    await ruleDialog.waitFor();
    await press(page, 'Escape');
    await ruleDialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusRole(page)).toBe('grid');
    expect(errors).toEqual([]);
  });

  it("by mouse: a row's Modifier buttons edit a customer (paused) and a rule (a day off, paused), Annuler changes nothing", async () => {
    const { email, customerId, rule } = await customerWithRule('Edition Souris');
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin, '/customers');
    const customers = page.getByRole('grid', { name: 'Clients' });
    await customers.getByRole('searchbox', { name: 'Filtrer Email' }).fill(email);
    const row = customers.getByRole('row').filter({ hasText: email });
    await row.getByRole('button', { name: 'Modifier le client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Modifier le client' });
    await dialog.getByRole('checkbox', { name: 'Client actif' }).click({ force: true });
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await customerByEmail(email)).active).toBe(true);
    await row.getByRole('button', { name: 'Modifier le client' }).click();
    await dialog.getByText('Client actif').click();
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await toast(page, 'Client modifié');
    expect((await customerByEmail(email)).active).toBe(false);
    await row.getByRole('gridcell', { name: 'En pause', exact: true }).waitFor();

    await row.getByRole('button', { name: 'Règles' }).click();
    await page.waitForURL(new RegExp(`/customers/rules/${customerId}$`));
    const ruleRow = page.getByRole('grid', { name: 'Règles' }).getByRole('row').filter({ hasText: rule.name });
    // The customer is paused: the rule says so.
    await ruleRow.getByRole('gridcell', { name: 'Client en pause' }).waitFor();
    await ruleRow.getByRole('button', { name: 'Modifier la règle' }).click();
    const ruleDialog = page.getByRole('dialog', { name: 'Modifier la règle' });
    await ruleDialog.getByText('Samedi', { exact: true }).click();
    await ruleDialog.getByText('Règle active (décochée : en pause)').click();
    await ruleDialog.getByLabel('Heure de début').fill('8');
    await ruleDialog.getByLabel('Heure de fin').fill('20h30');
    await shot(page, 'mouse-rule-edit');
    await ruleDialog.getByRole('button', { name: 'Enregistrer la règle' }).click();
    await toast(page, 'Règle modifiée');
    const edited = (
      await app.server.ctx.db.query<{ saturday: boolean; active: boolean; hour_start: string; hour_end: string }>(
        'SELECT saturday, active, hour_start, hour_end FROM rules WHERE id = $1',
        [rule.id],
      )
    ).rows[0];
    expect(edited).toEqual({ saturday: false, active: false, hour_start: '08:00', hour_end: '20:30' });
    await ruleRow.getByRole('gridcell', { name: 'En pause', exact: true }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('lives, why a lead went where it went', () => {
  it('p on a lead, or its context menu, explains the routing: the rule that took it, or why none did', async () => {
    const { landing, rule } = await customerWithRule('Routage', 1);
    await intake(landing.key, 2, 500);
    const db = app.server.ctx.db;
    // The first lead goes to the rule (cap 1), the second finds it full.
    await expect
      .poll(async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM lead_routings WHERE landing_id = $1`, [landing.id])).rows[0].n, {
        timeout: 15_000,
      })
      .toBe(2);
    const [sold, left] = (
      await db.query<{ id: number; entry_status: string }>('SELECT id, entry_status FROM leads WHERE landing_id = $1 ORDER BY entry_status', [landing.id])
    ).rows;
    expect([sold.entry_status, left.entry_status]).toEqual(['extracted', 'new']);

    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    // Keyboard: the sold lead in Extraits, p.
    await page.goto(`/landings_test/${landing.id}?tab=extracted`);
    const grid = page.getByRole('grid', { name: 'Leads' });
    await grid.getByRole('gridcell', { name: String(sold.id), exact: true }).waitFor();
    await grid.focus();
    await press(page, 'p');
    const dialog = page.getByRole('dialog', { name: `Attribution du lead n° ${sold.id}` });
    await dialog.waitFor();
    await dialog.getByText(new RegExp(`^Livré à .+ par la règle « ${rule.name} »\\.$`)).waitFor();
    const own = dialog.getByRole('table', { name: /règle de sa landing/i });
    await own.getByRole('row', { name: new RegExp(`${rule.name}.*0 / 1.*Retenue`) }).waitFor();
    await shot(page, 'routing-delivered');
    expect(await axeViolations(page)).toEqual([]);
    await press(page, 'Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusRole(page)).toBe('grid');

    // Mouse: the lead left new, its context menu, 'Pourquoi ce client ?'.
    await page.goto(`/landings_test/${landing.id}`);
    const cell = grid.getByRole('gridcell', { name: String(left.id), exact: true });
    await cell.click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Actions sur le lead' });
    await menu.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await menu.getByRole('menuitem', { name: /Pourquoi ce client/ }).click();
    const second = page.getByRole('dialog', { name: `Attribution du lead n° ${left.id}` });
    await second.getByText("Aucune règle ne l'a pris : il reste dans Nouveaux.").waitFor();
    await second.getByRole('row', { name: new RegExp(`${rule.name}.*Plafond du jour atteint`) }).waitFor();
    await shot(page, 'routing-unmatched');
    await second.getByRole('button', { name: 'Fermer' }).click();
    await second.waitFor({ state: 'detached' });

    // The palette has it too, on the focused lead.
    await grid.focus();
    await press(page, 'Control+k');
    await page.keyboard.type('pourquoi ce client');
    await page.getByRole('option', { name: /Pourquoi ce client/ }).waitFor();
    await press(page, 'Enter');
    await page.getByRole('dialog', { name: `Attribution du lead n° ${left.id}` }).waitFor();
    expect(errors).toEqual([]);
  });

  it('fits a phone: the explanation dialog and the edit dialogs at 390×844, axe clean', async () => {
    const { landing, email } = await customerWithRule('Routage Mobile', 3);
    await intake(landing.key, 1, 700);
    await expect
      .poll(
        async () =>
          (await app.server.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM lead_routings WHERE landing_id = $1`, [landing.id])).rows[0].n,
        { timeout: 15_000 },
      )
      .toBe(1);
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin, `/landings_test/${landing.id}?tab=extracted`);
    const grid = page.getByRole('grid', { name: 'Leads' });
    await grid.getByRole('gridcell').first().waitFor();
    await press(page, 'Control+k');
    await page.keyboard.type('pourquoi ce client');
    await press(page, 'Enter');
    const dialog = page.getByRole('dialog', { name: /Attribution du lead/ });
    await dialog.getByText(/^Livré à /).waitFor();
    await shot(page, 'phone-routing');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    // Every column of the explanation is in the dialog: nothing to scroll sideways.
    expect(await page.locator('.routing-dialog').evaluate((el) => el.closest('.dialog')!.scrollWidth - el.closest('.dialog')!.clientWidth)).toBeLessThanOrEqual(
      0,
    );
    expect(await axeViolations(page)).toEqual([]);
    await press(page, 'Escape');

    await page.goto('/customers');
    const customers = page.getByRole('grid', { name: 'Clients' });
    await customers.getByRole('searchbox', { name: 'Filtrer Email' }).fill(email);
    // The row's buttons are its last column, drawn once a phone's user scrolls the list to it
    // (and its email, far to the left by then, is no longer drawn): the list holds that one row.
    await expect.poll(() => customers.locator('[role=row][data-index]').count()).toBe(1);
    await customers.getByRole('row').filter({ hasText: email }).waitFor();
    await customers.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await customers.locator('[role=row][data-index="0"]').getByRole('button', { name: 'Modifier le client' }).click();
    await page.getByRole('dialog', { name: 'Modifier le client' }).waitFor();
    await shot(page, 'phone-customer-edit');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    expect(await axeViolations(page)).toEqual([]);
    await press(page, 'Escape');

    await page.goto('/customers/rules/0');
    await page.locator('[data-fill]').first().waitFor();
    const rules = page.getByRole('grid', { name: 'Règles' });
    await rules.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await rules.getByRole('button', { name: 'Modifier la règle' }).first().click();
    await page.getByRole('dialog', { name: 'Modifier la règle' }).waitFor();
    await shot(page, 'phone-rule-edit');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('lives, phone size, axe and languages', () => {
  it('shows each screen at 390×844 without a page wider than the phone, axe clean', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin);
    const ruleId = (await app.server.ctx.db.query<{ id: number }>('SELECT rule_id AS id FROM reports GROUP BY rule_id ORDER BY count(*) DESC LIMIT 1')).rows[0]
      .id;
    for (const [path, ready, name] of [
      ['/customers', page.getByRole('grid', { name: 'Clients' }).getByRole('gridcell').first(), 'phone-customers'],
      ['/customers?tab=create', page.getByRole('textbox', { name: 'Nom - Prénom', exact: true }), 'phone-customer-form'],
      ['/customers/rules/0', page.locator('[data-fill]').first(), 'phone-rules'],
      ['/customers/rules/0?tab=create', page.getByLabel('Nom de la règle'), 'phone-rule-form'],
      // The focused day's sales, whose table is wider than a phone, scroll in their own frame. The
      // focused day is today in Paris: just after midnight it has no sale yet, and no table.
      [`/customers/rules/rapports/${ruleId}`, page.getByRole('region', { name: 'Ventes du jour' }).first(), 'phone-reports'],
    ] as const) {
      await page.goto(path);
      await ready.waitFor();
      await networkIdle(page);
      await shot(page, name);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(MOBILE.width);
      expect(await axeViolations(page), path).toEqual([]);
    }
    expect(errors).toEqual([]);
  });

  it('switches language live: titles, tabs, columns, buttons and the fill follow', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin, '/customers/rules/0');
    await page.getByRole('columnheader', { name: 'Codes postaux' }).waitFor();
    await page.getByRole('button', { name: /^Langue/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.getByRole('tab', { name: 'Create a rule' }).waitFor();
    await page.getByRole('columnheader', { name: 'Postal codes' }).waitFor();
    await page
      .getByRole('group', { name: 'Rule actions' })
      .getByRole('button', { name: /Delete the rule/ })
      .waitFor();
    await page.getByRole('gridcell', { name: 'Everywhere' }).first().waitFor();
    await shot(page, 'rules-english');
    await page.getByRole('button', { name: /^Language/ }).click();
    await page.getByRole('menuitemradio', { name: '中文' }).click();
    await page.getByRole('tab', { name: '创建规则' }).waitFor();
    await page.getByRole('button', { name: /^语言|Language/ }).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await page.getByRole('tab', { name: 'Créer une règle' }).waitFor();
    expect(errors).toEqual([]);
  });
});
