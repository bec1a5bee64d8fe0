// Sales in Chromium, by keyboard only: an export to a named customer says how many leads its dedupe
// window left out, and the lead's routing explanation lists its sales; axe on the dialog.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, signIn, startApp, type App } from './harness';
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

const stamp = Date.now().toString(36);
const grid = (page: Page) => page.getByRole('grid', { name: 'Leads' });
const focusRole = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName.toLowerCase());

async function press(page: Page, ...keys: string[]) {
  for (const k of keys) await page.keyboard.press(k);
}

describe('sales, keyboard only', () => {
  it('exports to a customer, skipping the person it already has, then shows each sale beside the routing', async () => {
    const db = app.server.ctx.db;
    const landing = await createLanding(db, `E2E Ventes ${stamp}`);
    const admin = (await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [DEMO.admin.email])).rows[0].id;
    const customer = await createCustomer(db, admin, customerCreateRequest.parse({ name: `Ventes ${stamp}`, email: `ventes-${stamp}@e2e.fr` }));
    const rule = await createRule(
      db,
      admin,
      ruleCreateRequest.parse({
        name: `Règle ventes ${stamp}`,
        customer_id: customer.id,
        landings: [landing.id],
        ...Object.fromEntries(weekdays.map((d) => [d, true])),
      }),
    );
    const { rows: leads } = await db.query<{ id: number }>(
      `INSERT INTO leads (landing_id, entry_status, source, departement, data)
       SELECT $1, 'new', 'google', '30', jsonb_build_object('nom', n, 'prenom', 'Test', 'telephone', t, 'email', n || '@e2e.fr', 'code_postal', '30000')
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(n, t, i) ORDER BY i RETURNING id`,
      [landing.id, ['Vente1', 'Vente2', 'Vente3'], ['0611111111', '+33 6 11 11 11 11', '0622222222']],
    );
    const [first] = leads.map((l) => l.id);
    // Two months ago the rule sold the first lead live, and the customer returned it: out of its 30-day window.
    const report = (
      await db.query<{ id: number }>(
        `INSERT INTO reports (rule_id, date, leads_number, count) VALUES ($1, (now() - interval '60 days')::date, 10, 1) RETURNING id`,
        [rule.id],
      )
    ).rows[0].id;
    await db.query(
      `INSERT INTO lead_sales (lead_id, customer_id, rule_id, report_id, channel, phone, sold_at, returned_at, return_reason)
       VALUES ($1, $2, $3, $4, 'live', '0611111111', now() - interval '60 days', now() - interval '59 days', 'wrong_number')`,
      [first, customer.id, rule.id, report],
    );

    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin, `/landings_test/${landing.id}`);
    await grid(page).getByRole('gridcell', { name: 'Vente1', exact: true }).waitFor();
    await grid(page).focus();
    // The buyer typed as 'Vendu à', then the three leads selected from the top, e.
    await press(page, 'f', 'Tab', 'Tab');
    await page.keyboard.type(`ventes ${stamp}`);
    await press(page, 'Escape', 'Escape');
    expect(await focusRole(page)).toBe('grid');
    // Sold at 9,90 € each rather than the customer's default price.
    await page.getByRole('textbox', { name: 'Prix HT' }).focus();
    await page.keyboard.type('9,90');
    await grid(page).focus();
    await press(page, 'Home', 'x', 'Shift+J', 'Shift+J');
    await page.getByText('3 leads · 3 sélectionnés').waitFor();
    await press(page, 'e');
    await page
      .locator('.toasts')
      .getByText(/^Leads extraits \(2\)\s:\sexport disponible\. Un lead écarté\s:\sce client a déjà acheté cette personne/)
      .waitFor();
    const prices = await db.query(`SELECT price_cents FROM lead_sales WHERE customer_id = $1 AND channel = 'export'`, [customer.id]);
    expect(prices.rows).toEqual([{ price_cents: 990 }, { price_cents: 990 }]);

    // The first lead, in Extraits: p explains its routing and lists its two sales, the oldest first.
    await page.goto(`/landings_test/${landing.id}?tab=extracted`);
    await grid(page).getByRole('gridcell', { name: 'Vente1', exact: true }).click();
    await press(page, 'p');
    const dialog = page.getByRole('dialog', { name: `Attribution du lead n° ${first}` });
    const sales = dialog.getByRole('table', { name: /ventes, de la plus ancienne/ });
    await sales.waitFor();
    const rows = sales.getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(1).innerText()).toMatch(new RegExp(`Ventes ${stamp}\\s+Règle ventes ${stamp}\\s+En direct\\s+.+\\s+Retourné le`));
    expect(await rows.nth(2).innerText()).toMatch(new RegExp(`Ventes ${stamp}\\s+Export n° \\d+`));
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/sales-ui-dialog.png' });
    // The rule's name is a link the keyboard reaches, to its reports.
    const link = dialog.getByRole('link', { name: `Règle ventes ${stamp}` });
    for (let i = 0; i < 10 && !(await link.evaluate((el) => el === document.activeElement)); i++) await press(page, 'Tab');
    expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
    await press(page, 'Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusRole(page)).toBe('grid');
    expect(errors).toEqual([]);
  });
});
