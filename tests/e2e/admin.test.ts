// The administration screens in Chromium: accounts (with the invitation and 'Mot de passe
// oublié ?' read from a local SMTP server), exports and Taboola, by keyboard only, by mouse only
// and at phone size; axe-core on every screen, dialog and menu; a live language switch.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailedLink, startSmtp } from '../api/smtp';
import { axeViolations, DEMO, MOBILE, signIn, startApp, type App } from './harness';

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

/** The focus is somewhere useful: never left on <body>. */
async function expectFocusKept(page: Page) {
  expect(await page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true);
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
    const { page, context, errors } = await app.page();
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
    await expectFocusKept(page);
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
    await holder.context.close();

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
    await expectFocusKept(page);

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
    await expectFocusKept(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("'Mot de passe oublié ?' answers the same for any address and mails a link to an existing one", async () => {
    const { page, context } = await app.page();
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
    await context.close();
  });
});

describe('accounts, mouse only and phone size', () => {
  it('creates an account and changes its role with clicks, at 390×844', async () => {
    const { page, context, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin);
    await page.goto('/users');
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
    await context.close();
  });
});
