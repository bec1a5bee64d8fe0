// Issue 26, returns, in Chromium on the demo: 'Retourner la vente' from the lead view's sales panel
// and from a day's report, by keyboard, axe-clean, the focus never on <body>; the day's returned
// count and amount; the customer's public return page, on a phone, without script.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnToken } from '../../server/services/sales/return-links';
import { axeViolations, DEMO, focusRowWith, MOBILE, signIn, startApp, type App } from './harness';

let app: App;
let page: Page;
let errors: string[];
beforeAll(async () => {
  app = await startApp();
  ({ page, errors } = await app.page());
  await signIn(page, DEMO.admin);
});
afterAll(async () => {
  await app?.close();
});

const query = async <T>(sql: string, params: unknown[] = []) => (await app.server.ctx.db.query<T>(sql, params)).rows;
const shot = (p: Page, name: string) => p.screenshot({ path: `/tmp/returns-${name}.png` });
/** The reason radio button under the focus, if one is. */
const focusedReason = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value);
const activeTag = () => page.evaluate(() => document.activeElement?.tagName.toLowerCase() ?? 'none');

interface Sale {
  id: number;
  lead_id: number;
  landing_id: number;
  report_id: number;
  rule_id: number;
  customer: string;
}

/** Live sales still standing, the newest first, made returnable (sold a minute ago, within their customer's window). */
async function freshSales(n: number): Promise<Sale[]> {
  const sales = await query<Sale>(
    `SELECT s.id::int, s.lead_id::int, l.landing_id, s.report_id, s.rule_id, c.name AS customer
       FROM lead_sales s JOIN leads l ON l.id = s.lead_id JOIN customers c ON c.id = s.customer_id
      WHERE s.channel = 'live' AND s.returned_at IS NULL AND l.entry_status = 'extracted' AND s.report_id IS NOT NULL
      ORDER BY s.sold_at DESC, s.id DESC LIMIT $1`,
    [n],
  );
  await query(`UPDATE lead_sales SET sold_at = now() - interval '1 minute' WHERE id = ANY($1::bigint[])`, [sales.map((s) => s.id)]);
  await query(`UPDATE customers SET return_days = 7, max_return_rate = NULL WHERE name = ANY($1::text[])`, [sales.map((s) => s.customer)]);
  return sales;
}

describe("'Retourner la vente'", () => {
  it('returns a sale from the lead view’s sales panel by keyboard: reason, then Enter; the focus stays in the panel', async () => {
    const [sale] = await freshSales(1);
    await page.goto(`/landings_test/${sale!.landing_id}?tab=extracted&id=${sale!.lead_id}`);
    const grid = page.getByRole('grid', { name: 'Leads' });
    await grid.getByRole('gridcell', { name: String(sale!.lead_id), exact: true }).click();
    await page.keyboard.press('p');
    const routing = page.getByRole('dialog', { name: `Attribution du lead n° ${sale!.lead_id}` });
    const button = routing.getByRole('button', { name: `Retourner la vente du lead n° ${sale!.lead_id} à ${sale!.customer}` });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Retourner la vente du lead n° ${sale!.lead_id} à ${sale!.customer}` });
    await dialog.waitFor();
    await expect.poll(focusedReason).toBe('wrong_number');
    await shot(page, 'dialog');
    expect(await axeViolations(page)).toEqual([]);
    // ↓ picks 'Injoignable'; Enter on a radio button sends the form.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Vente retournée : le lead n° ${sale!.lead_id} est proposé aux autres règles`).waitFor();
    await expect
      .poll(async () => (await query<{ return_reason: string }>('SELECT return_reason FROM lead_sales WHERE id = $1', [sale!.id]))[0]!.return_reason)
      .toBe('unreachable');
    await routing.getByRole('cell', { name: 'Injoignable' }).first().waitFor();
    await expect.poll(activeTag).toBe('table');
    await shot(page, 'returned');
    await page.keyboard.press('Escape');
  });

  it('shows a refusal in the dialog, and each day’s delivered, returned and amount on the reports screen', async () => {
    const [sale] = await freshSales(1);
    // The day's one priced sale: its amount is 12,50 € until it is returned.
    await query('UPDATE lead_sales SET price_cents = CASE WHEN id = $1 THEN 1250 ELSE 0 END WHERE report_id = $2', [sale!.id, sale!.report_id]);
    const [{ day }] = (await query<{ day: string }>("SELECT to_char(date, 'DD/MM/YYYY') AS day FROM reports WHERE id = $1", [sale!.report_id])) as [
      { day: string },
    ];
    await page.goto(`/customers/rules/rapports/${sale!.rule_id}`);
    const grid = page.getByRole('grid', { name: 'Rapports quotidiens' });
    await grid.getByRole('gridcell').first().waitFor();
    for (const header of ['Leads livrés', 'Retournés', 'Montant']) await grid.getByRole('columnheader', { name: header }).waitFor();
    await grid.focus();
    await focusRowWith(page, grid, day);
    const dayRow = grid.getByRole('row').filter({ hasText: '12,50 €' });
    await dayRow.waitFor();
    const sales = page.getByRole('region', { name: 'Ventes du jour' });
    await sales.getByRole('cell', { name: '12,50 €' }).waitFor();

    // Out of the window meanwhile: the server's refusal stays in the dialog.
    await query(`UPDATE lead_sales SET sold_at = now() - interval '8 days' WHERE id = $1`, [sale!.id]);
    const button = sales.getByRole('button', { name: `Retourner la vente du lead n° ${sale!.lead_id} à ${sale!.customer}` });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: /^Retourner la vente du lead/ });
    await dialog.waitFor();
    await expect.poll(focusedReason).toBe('wrong_number');
    // Space picks 'Faux numéro', Enter sends.
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'Délai de retour dépassé' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'refused');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).toMatch(/^Retourner la vente du lead/);

    // Returned meanwhile: the day counts it, and its amount leaves it out.
    await query(`UPDATE lead_sales SET sold_at = now() WHERE id = $1`, [sale!.id]);
    await button.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await expect.poll(focusedReason).toBe('wrong_number');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await sales.getByRole('cell', { name: 'Faux numéro' }).waitFor();
    await expect.poll(activeTag).toBe('div');
    await dayRow.waitFor({ state: 'detached', timeout: 15_000 });
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'reports');
  });
});

describe('the public return page', () => {
  it('works on a phone without script or sign-in, by keyboard, axe-clean, and refuses a second return', async () => {
    const [sale] = await freshSales(1);
    const { page: phone, errors: phoneErrors } = await app.page({ viewport: MOBILE });
    const csp: string[] = [];
    phone.on('console', (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && csp.push(m.text()));
    await phone.goto(`/api/retours/${returnToken(app.server.ctx.config, sale!.id)}`);
    await phone.getByRole('heading', { name: "Retour d'un lead" }).waitFor();
    await phone.getByText(`n° ${sale!.lead_id}`).waitFor();
    expect(await axeViolations(phone)).toEqual([]);
    await shot(phone, 'page');
    // The first reason by Tab, 'Doublon' by arrows, then the button.
    await phone.keyboard.press('Tab');
    await phone.keyboard.press('ArrowDown');
    await phone.keyboard.press('ArrowDown');
    await phone.getByRole('button', { name: 'Retourner ce lead' }).focus();
    await phone.keyboard.press('Enter');
    await phone.getByText('Le lead est retourné').waitFor();
    expect((await query<{ return_reason: string }>('SELECT return_reason FROM lead_sales WHERE id = $1', [sale!.id]))[0]!.return_reason).toBe('duplicate');
    await shot(phone, 'page-done');
    await phone.goto(`/api/retours/${returnToken(app.server.ctx.config, sale!.id)}`);
    await phone.getByRole('alert').filter({ hasText: 'Cette vente a déjà été retournée' }).waitFor();
    expect(await phone.getByRole('button', { name: 'Retourner ce lead' }).count()).toBe(0);
    expect(csp).toEqual([]);
    expect(phoneErrors).toEqual([]);
    await phone.close();
    expect(errors).toEqual([]);
  });
});
