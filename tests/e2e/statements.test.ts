// Statements in Chromium (issue 26): the palette's 'Relevé de <client>' opens the month's statement,
// its lines and totals in euros; keys move between months and download the pdf; the customers list
// shows the budget used as a progress bar; axe finds nothing serious, at desktop and phone width.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerCreateRequest } from '../../src/api/customers/contract';
import { ruleCreateRequest, weekdays } from '../../src/api/rules/contract';
import { parisMonth, shiftMonth } from '../../src/shared/dates';
import { createCustomer } from '../../server/services/lives/customers';
import { createRule } from '../../server/services/lives/rules';
import { axeViolations, DEMO, focusKept, MOBILE, signIn, startApp, type App } from './harness';
import { createLanding } from './landing-fixture';

let app: App;
let customerId: number;
const stamp = Date.now().toString(36);
const name = `Relevé ${stamp}`;
const month = parisMonth();
const previous = shiftMonth(month, -1);

beforeAll(async () => {
  app = await startApp();
  const db = app.server.ctx.db;
  const landing = await createLanding(db, `E2E Relevés ${stamp}`);
  const admin = (await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [DEMO.admin.email])).rows[0].id;
  const customer = await createCustomer(
    db,
    admin,
    customerCreateRequest.parse({ name, email: `releve-${stamp}@e2e.fr`, default_price_cents: 1250, monthly_budget_cents: 10_000 }),
  );
  customerId = customer.id;
  const rule = await createRule(
    db,
    admin,
    ruleCreateRequest.parse({
      name: `Gard ${stamp}`,
      customer_id: customerId,
      landings: [landing.id],
      active: false,
      ...Object.fromEntries(weekdays.map((d) => [d, true])),
    }),
  );
  const { rows: leads } = await db.query<{ id: number }>(
    `INSERT INTO leads (landing_id, entry_status, source, data) SELECT $1, 'extracted', 'google', '{}'::jsonb FROM generate_series(1, 3) RETURNING id`,
    [landing.id],
  );
  // This month: two live sales at 12,50 €, one of them returned; last month: an export at 9,90 €.
  await db.query(
    `INSERT INTO lead_sales (lead_id, customer_id, rule_id, channel, price_cents, sold_at, returned_at, return_reason) VALUES
       ($1, $4, $5, 'live', 1250, date_trunc('month', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris' + interval '10 hours', NULL, NULL),
       ($2, $4, $5, 'live', 1250, date_trunc('month', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris' + interval '11 hours',
            date_trunc('month', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris' + interval '12 hours', 'duplicate'),
       ($3, $4, NULL, 'export', 990, date_trunc('month', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris' - interval '5 days', NULL, NULL)`,
    [leads[0]!.id, leads[1]!.id, leads[2]!.id, customerId, rule.id],
  );
  await db.query(
    `INSERT INTO customer_months (customer_id, month, sales, sold_cents, returns, credits_cents)
     VALUES ($1, date_trunc('month', now() AT TIME ZONE 'Europe/Paris')::date, 2, 2500, 1, 1250)`,
    [customerId],
  );
});
afterAll(async () => {
  await app?.close();
});

/** Amounts as the page shows them, with plain spaces. */
const textOf = async (page: Page, selector: string) => (await page.locator(selector).innerText()).replace(/[\u00a0\u202f]/g, ' ');

describe('statements', () => {
  it('keyboard: the palette opens the statement, keys change the month and download the pdf', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog').getByRole('combobox').waitFor();
    await page.keyboard.type(`releve de releve ${stamp}`);
    await page
      .getByRole('dialog')
      .getByRole('option', { name: new RegExp(`Relevé de ${name}`) })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/customers/releve/${customerId}$`));
    await page.getByRole('heading', { level: 1, name: `Relevé de ${name}` }).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: `Gard ${stamp}` }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    expect((await table.locator('tbody tr').first().innerText()).replace(/[\u00a0\u202f]/g, ' ')).toMatch(/Gard .*\tLivraison\t2\t1\t25,00 €\t12,50 €/);
    expect(await textOf(page, '[data-total=sales]')).toBe('25,00 €');
    expect(await textOf(page, '[data-total=credits]')).toBe('12,50 €');
    expect(await textOf(page, '[data-total=due]')).toBe('12,50 €');
    expect(await axeViolations(page)).toEqual([]);

    // p: last month, its export at 9,90 €; n: back. No month after the current one.
    await page.locator('#main').focus();
    await page.keyboard.press('p');
    await page.waitForURL(new RegExp(`month=${previous}$`));
    await table.getByRole('cell', { name: 'Sans règle (export)' }).waitFor();
    expect(await textOf(page, '[data-total=due]')).toBe('9,90 €');
    await expect.poll(() => focusKept(page)).toBe(true);
    await page.keyboard.press('n');
    await page.waitForURL(new RegExp(`month=${month}$`));
    await table.getByRole('cell', { name: `Gard ${stamp}` }).waitFor();
    await page.keyboard.press('n');
    expect(page.url()).toMatch(new RegExp(`month=${month}$`));

    // The month's select names it in the console's language; the year's picks another year.
    const monthName = new Intl.DateTimeFormat('fr', { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, Number(month.slice(5)) - 1, 15));
    expect(await page.locator('[data-field=statement-month] button').innerText()).toContain(monthName);
    const year = Number(month.slice(0, 4));
    const yearSelect = page.locator('[data-field=statement-year] button');
    await yearSelect.click();
    await page.getByRole('option', { name: String(year - 1), exact: true }).click();
    await page.waitForURL(new RegExp(`month=${year - 1}-${month.slice(5)}$`));
    await yearSelect.click();
    await page.getByRole('option', { name: String(year), exact: true }).click();
    await page.waitForURL(new RegExp(`month=${month}$`));
    // The keys act on the month shown, which the screen renders after the address changed.
    await page.locator('#statement-caption').getByText(`${monthName} ${year}`).waitFor();

    // d: the month as a pdf, named by the customer and the month.
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('d')]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^Relevé ${name} .+ \\d{4}\\.pdf$`));
    await page
      .locator('.toasts')
      .getByText(/^Relevé téléchargé/)
      .waitFor();
    await expect.poll(() => focusKept(page)).toBe(true);
    const { rows } = await app.server.ctx.db.query("SELECT details FROM audit_log WHERE action = 'download' AND entity = 'statement'");
    expect(rows).toEqual([{ details: { customer_id: customerId, month, format: 'pdf' } }]);

    // The customers list: month-to-date revenue and the budget used, in words for screen readers.
    await page.goto('/customers');
    const bar = page.getByRole('progressbar', { name: `Budget du mois utilisé par ${name}` });
    await bar.waitFor();
    expect((await bar.getAttribute('aria-valuetext'))?.replace(/[\u00a0\u202f]/g, ' ')).toBe('12,50 € sur 100,00 € (13 %)');
    expect(await bar.getAttribute('aria-valuenow')).toBe('13');
    expect(errors).toEqual([]);
  }, 180_000);

  it('fits a phone: the table scrolls within its region, nothing serious for axe', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin, `/customers/releve/${customerId}?month=${month}`);
    await page
      .getByRole('table')
      .getByRole('cell', { name: `Gard ${stamp}` })
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `/tmp/ledger-statement-phone.png` });
    expect(errors).toEqual([]);
  }, 120_000);
});
