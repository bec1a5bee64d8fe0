// The bell of the navbar (admins): its unread count, the list by hotkey, palette and click, one
// and all marked read by keyboard, a link to the subject; the phone width; axe-core on each.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../server/services/alerts/raise';
import { axeViolations, DEMO, focusKept, MOBILE, signIn, startApp, type App } from './harness';

let app: App;
let customer: { id: number; name: string; email: string };

beforeAll(async () => {
  app = await startApp();
  const { db } = app.server.ctx;
  customer = (await db.query<{ id: number; name: string; email: string }>('SELECT id, name, email FROM customers ORDER BY id LIMIT 1')).rows[0]!;
  const rule = (await db.query<{ id: number }>('SELECT id FROM rules WHERE deleted_at IS NULL ORDER BY id LIMIT 1')).rows[0]!;
  const admin = (await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [DEMO.admin.email])).rows[0]!;
  await db.tx(async (q) => {
    // The demo's own alerts (its rules filled these days) give way to the three this file counts.
    await q.query('DELETE FROM alerts');
    await raiseAlert(q, { kind: 'export_failed', exportId: 7, userId: admin.id });
    await raiseAlert(q, { kind: 'cap_reached', ruleId: rule.id, span: 'day' });
    await raiseAlert(q, { kind: 'webhook_paused', customerId: customer.id });
  });
}, 180_000);
afterAll(() => app?.close());

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/notifications-${name}.png` });
const bell = (page: Page) => page.getByRole('button', { name: /^Notifications, / });

describe('notifications', () => {
  it('shows the unread count, opens the list by key, palette and click, marks one then all read by keyboard, and links to the subject', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 3 non lues');
    expect(await axeViolations(page)).toEqual([]);

    // g n opens the list, newest first.
    await page.locator('#main').focus();
    await page.keyboard.press('g');
    await page.keyboard.press('n');
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    await dialog.waitFor();
    const items = dialog.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(3);
    expect(await items.nth(0).getByRole('link').textContent()).toBe(
      `Le webhook de ${customer.name} est en pause après 10 échecs de suite\u202f: ses livraisons sont gardées jusqu'à sa reprise`,
    );
    expect(await items.nth(1).getByRole('link').textContent()).toMatch(/^La règle .+ a atteint son plafond journalier$/);
    expect(await items.nth(2).getByRole('link').textContent()).toMatch(/^L'export personnalisé n° 7 de .+ a échoué$/);
    await dialog.getByText('3 notifications non lues.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'list');

    // One marked read by keyboard: the focus moves to its link, the count drops.
    const markFirst = items.nth(0).getByRole('button', { name: 'Marquer comme lue' });
    await markFirst.focus();
    await page.keyboard.press('Enter');
    await dialog.getByText('2 notifications non lues.').waitFor();
    expect(await items.nth(0).getByText('Lue', { exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => focusKept(page)).toBe(true);
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 2 non lues');

    // The palette's 'Notifications'; then all marked read.
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog').getByRole('combobox').waitFor();
    await page.keyboard.type('notifications');
    await page
      .getByRole('option', { name: /^Notifications/ })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Tout marquer comme lu' }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByText('Tout est lu.').waitFor();
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Marquer comme lue' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, aucune non lue');

    // An alert raised meanwhile shows when the window regains focus.
    await app.server.ctx.db.tx((q) => raiseAlert(q, { kind: 'budget_reached', customerId: customer.id }));
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 1 non lue');

    // The bell itself; an alert's link opens its subject: the customer's rules.
    await bell(page).click();
    await dialog.waitFor();
    // The newest, unread: opening it marks it read.
    await items.nth(0).getByRole('link').click();
    await page.waitForURL(new RegExp(`/customers/rules/${customer.id}$`));
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, aucune non lue');
    expect(errors).toEqual([]);
  });

  it('shows a paused webhook in the customers list and resumes it by keyboard', async () => {
    await app.server.ctx.db.query('UPDATE customers SET webhook_paused_at = now(), webhook_failures = 10 WHERE id = $1', [customer.id]);
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin, '/customers');
    const customers = page.getByRole('grid', { name: 'Clients' });
    await customers.getByRole('searchbox', { name: 'Filtrer Email' }).fill(customer.email);
    await customers.getByRole('gridcell', { name: customer.email }).waitFor();
    await customers.getByRole('columnheader', { name: /État du webhook/ }).waitFor();
    await customers.getByRole('gridcell', { name: 'En pause' }).waitFor();
    await customers.focus();
    const resume = page.getByRole('button', { name: 'Reprendre le webhook' });
    await resume.focus();
    await page.keyboard.press('Enter');
    // Failed once in a full browser run with the page's CPU throttled 3x; what the page and the
    // database held then is what the failure should say.
    await page
      .locator('.toasts')
      .getByText(`Webhook de ${customer.name} repris`)
      .waitFor()
      .catch(async (err: Error) => {
        const focus = await page.evaluate(
          () => `${document.activeElement?.tagName} ${document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.slice(0, 60)}`,
        );
        const toasts = await page
          .locator('.toasts')
          .innerText()
          .catch(() => '(none)');
        const { rows } = await app.server.ctx.db.query('SELECT webhook_paused_at, webhook_failures FROM customers WHERE id = $1', [customer.id]);
        throw new Error(`${err.message}\nfocus: ${focus}\ntoasts: ${toasts}\nresume buttons: ${await resume.count()}\ncustomer: ${JSON.stringify(rows[0])}`);
      });
    await expect.poll(() => resume.count()).toBe(0);
    await expect.poll(() => focusKept(page)).toBe(true);
    const { rows } = await app.server.ctx.db.query('SELECT webhook_paused_at, webhook_failures FROM customers WHERE id = $1', [customer.id]);
    expect(rows[0]).toEqual({ webhook_paused_at: null, webhook_failures: 0 });
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'customers');
    expect(errors).toEqual([]);
  });

  it('fits a phone, and is not offered to a normal user', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin);
    await bell(page).click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    await dialog.waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(4);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'phone');
    expect(errors).toEqual([]);

    const staff = await app.page();
    await signIn(staff.page, DEMO.staff);
    await staff.page.getByRole('button', { name: 'Déconnexion' }).waitFor();
    expect(await bell(staff.page).count()).toBe(0);
  });
});
