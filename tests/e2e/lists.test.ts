// The five list screens (customers, rules, reports, accounts, exports) in Chromium: their shared
// shape (ListScreen: row buttons from the commands' menus, Escape from a filter back to the grid),
// their headers under axe, a pending invitation, and the undo of one-key role and pause changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/services/users';
import { DEMO, signIn, startApp, type App } from './harness';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.server.ctx.db;
const focusedRole = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('role'));

/** The nodes axe's `empty-table-header` finds (a minor rule, outside harness.axeViolations). */
async function emptyHeaders(page: Page) {
  await page.evaluate(readFileSync(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'rule', values: ['empty-table-header'] } });
    return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
  });
}

async function firstRule() {
  const { rows } = await db().query<{ id: number }>('SELECT id FROM rules ORDER BY id LIMIT 1');
  return rows[0]!.id;
}

describe('the list screens', () => {
  it('have no empty column header, and no filter row where no column filters (the exports)', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const lists: [string, string][] = [
      ['/customers', 'Clients'],
      ['/customers/rules/0', 'Règles'],
      [`/customers/rules/rapports/${await firstRule()}`, 'Rapports quotidiens'],
      ['/users', 'Comptes'],
      ['/exports/0', 'Exports'],
    ];
    for (const [path, name] of lists) {
      await page.goto(path);
      const grid = page.getByRole('grid', { name });
      await grid.locator('.lg-row[data-index="0"]').waitFor();
      expect(await emptyHeaders(page), path).toEqual([]);
    }
    expect(await page.getByRole('grid', { name: 'Exports' }).locator('.lg-filter-row').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('take the row buttons from the commands, and Escape in a filter above the grid returns to it', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin, '/customers/rules/0');
    const row = page.getByRole('grid', { name: 'Règles' }).locator('.lg-row[data-index="0"]');
    await row.waitFor();
    // The inline places of rules.actions, in their order; the state button follows the row's rule.
    const buttons = await row.locator('button[data-command]').evaluateAll((els) => els.map((el) => el.getAttribute('data-command')));
    expect(buttons).toEqual(['rules.openReports', expect.stringMatching(/^rules\.(pause|resume)$/), 'rules.edit', 'rules.delete']);

    await page.goto('/exports/0');
    const grid = page.getByRole('grid', { name: 'Exports' });
    await grid.locator('.lg-row[data-index="0"]').waitFor();
    await page.getByRole('search').getByRole('combobox').first().focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedRole(page)).toBe('grid');
    expect(errors).toEqual([]);
  });
});

describe('accounts', () => {
  it("show an account without a password as 'Invitation envoyée' before the mail job has made its link, and offer its new invitation", async () => {
    // Between the account's creation and the mail job: no password, no link yet.
    await createUser(db(), { name: 'Zoé Attente', email: 'zoe.attente@test.local' });
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin, '/users');
    const row = page.getByRole('grid', { name: 'Comptes' }).getByRole('row').filter({ hasText: 'zoe.attente@test.local' });
    await row.getByText('Invitation envoyée').waitFor();
    await row.locator('[role=gridcell]').first().click();
    // The toolbar follows the focused row once the list has read it: wait for it, as a user would.
    const reinvite = page.getByRole('group', { name: /Actions/ }).getByRole('button', { name: /Renvoyer l'invitation/ });
    await expect.poll(() => reinvite.isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });
});

/** A change reaches the database one request after its key: on a loaded machine, more than the poll's default second. */
const SAVED = { timeout: 5_000 };

describe('one-key changes', () => {
  it('a demotion by n and a pause by p are undone from their toast, or by z', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const account = await createUser(db(), { name: 'Ulysse Promu', email: 'ulysse.promu@test.local', password: 'un mot de passe assez long', admin: true });
    const isAdmin = async () => (await db().query<{ admin: boolean }>('SELECT admin FROM users WHERE id = $1', [account.id])).rows[0]!.admin;

    await page.goto('/users');
    const users = page.getByRole('grid', { name: 'Comptes' });
    await users.getByRole('row').filter({ hasText: account.email }).locator('[role=gridcell]').first().click();
    await page.keyboard.press('n');
    const toast = page.locator('.toast').filter({ hasText: 'Rôle modifié' });
    await toast.waitFor();
    await expect.poll(isAdmin, SAVED).toBe(false);
    await toast.getByRole('button', { name: 'Annuler' }).click();
    await page.locator('.toasts').getByText('Rôle rétabli').waitFor();
    await expect.poll(isAdmin, SAVED).toBe(true);
    await expect.poll(() => focusedRole(page)).toBe('grid');
    // By keyboard: the same undo on z, once the list shows the change (the first toast may still be up).
    await page.keyboard.press('n');
    await users.getByRole('row').filter({ hasText: account.email }).getByRole('gridcell', { name: 'normal', exact: true }).waitFor();
    await expect.poll(isAdmin, SAVED).toBe(false);
    await page.keyboard.press('z');
    await expect.poll(isAdmin, SAVED).toBe(true);

    const { rows: customers } = await db().query<{ id: number; name: string }>('SELECT id, name FROM customers WHERE active ORDER BY id LIMIT 1');
    const customer = customers[0]!;
    const isActive = async () => (await db().query<{ active: boolean }>('SELECT active FROM customers WHERE id = $1', [customer.id])).rows[0]!.active;
    await page.goto('/customers');
    const customerRow = page.getByRole('grid', { name: 'Clients' }).getByRole('row').filter({ hasText: customer.name });
    await customerRow.locator('[role=gridcell]').first().click();
    await page.keyboard.press('p');
    const paused = page.locator('.toast').filter({ hasText: `${customer.name} est en pause` });
    await paused.waitFor();
    await expect.poll(isActive, SAVED).toBe(false);
    await paused.getByRole('button', { name: 'Annuler' }).click();
    await expect.poll(isActive, SAVED).toBe(true);
    await page.keyboard.press('p');
    await customerRow.getByRole('gridcell', { name: 'En pause', exact: true }).waitFor();
    await expect.poll(isActive, SAVED).toBe(false);
    await page.keyboard.press('z');
    await expect.poll(isActive, SAVED).toBe(true);
    expect(errors).toEqual([]);
  });
});
