// Issue 25 in Chromium on the demo, by keyboard: the day group's presets and arrow keys, a rule
// created with caps, priority, weight, a filter and no exclusivity through the form's 'Avancé'
// section, axe on the form with the section open, and the list's fill per window and priority.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../server/services/events/outbox';
import { listRules } from '../../server/services/lives/rules';
import { axeViolations, DEMO, signIn, startApp, type App } from './harness';

let app: App;
let page: Page;
let errors: string[];
beforeAll(async () => {
  app = await startApp();
  ({ page, errors } = await app.page());
  await signIn(page, DEMO.admin, '/customers/rules/0?tab=create');
  await page.getByLabel('Nom de la règle').waitFor();
});
afterAll(async () => {
  await app?.close();
});

const query = async <T>(sql: string, params: unknown[] = []) => (await app.server.ctx.db.query<T>(sql, params)).rows;
const shot = (name: string) => page.screenshot({ path: `/tmp/rules-advanced-${name}.png` });
/** The focused element: its id, or its role and name. */
const focused = () => page.evaluate(() => ({ id: document.activeElement?.id ?? '', tag: document.activeElement?.tagName.toLowerCase() ?? '' }));
const dayBox = (day: string) => page.locator(`#rule-day-${day}`);
const checkedDays = () =>
  page.evaluate(() =>
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].filter(
      (d) => (document.getElementById(`rule-day-${d}`) as HTMLInputElement).checked,
    ),
  );

describe('the day group', () => {
  it('sets the days by its presets, and is one tab stop whose days the arrows, Home and End walk', async () => {
    const workdays = page.getByRole('button', { name: 'Lun–Ven' });
    const every = page.getByRole('button', { name: 'Tous les jours' });
    await workdays.focus();
    await page.keyboard.press('Enter');
    expect(await checkedDays()).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']);
    expect(await workdays.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await checkedDays()).toHaveLength(7);
    expect(await every.getAttribute('aria-pressed')).toBe('true');
    expect(await workdays.getAttribute('aria-pressed')).toBe('false');

    // Tab enters the days once, on the first; the arrows move and wrap, Space ticks.
    await workdays.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('rule-day-monday');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    expect((await focused()).id).toBe('rule-day-saturday');
    await page.keyboard.press('Space');
    expect(await checkedDays()).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']);
    await page.keyboard.press('End');
    expect((await focused()).id).toBe('rule-day-sunday');
    await page.keyboard.press('ArrowRight');
    expect((await focused()).id).toBe('rule-day-monday');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowUp');
    expect((await focused()).id).toBe('rule-day-saturday');
    // Leaving and coming back lands on the day last focused; one Tab leaves the group.
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('rule-start');
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).id).toBe('rule-day-saturday');
    expect(await dayBox('saturday').getAttribute('tabindex')).toBe('0');
    expect(await dayBox('monday').getAttribute('tabindex')).toBe('-1');
  });
});

describe("a rule with the 'Avancé' section", () => {
  it('is created by keyboard with caps, priority, weight, a filter and shared leads', async () => {
    // Customer and landing, by the keyboard of the pickers.
    await page.getByRole('button', { name: /Choisir un client/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Soleil Conseil' }).waitFor();
    await page.keyboard.type('Soleil');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Soleil Conseil Client' }).waitFor();
    await page.getByLabel('Nom de la règle').focus();
    await page.keyboard.type('Toitures en tuiles');
    await page.getByRole('button', { name: /Choisir les landings/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Panneaux Solaires' }).waitFor();
    await page.keyboard.type('Panneaux');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Panneaux Solaires Landings' }).waitFor();
    await page.getByLabel('Leads par jour').fill('20');

    const toggle = page.getByRole('button', { name: 'Avancé' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('rule-cap-hour');
    await page.keyboard.type('5');
    await page.keyboard.press('Tab');
    // A week cap below the day's is taken, with a word of warning.
    await page.keyboard.type('15');
    await page.getByText('Le plafond de la semaine est plus bas que celui du jour').waitFor();
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('70');
    await page.keyboard.press('Tab');
    await page.keyboard.type('250');
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('rule-priority');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    expect(await page.locator('#rule-priority').inputValue()).toBe('2');
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('rule-weight');
    await page.keyboard.type('300');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // Exclusive, ticked by default: off.
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('rule-filter-add');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'rule-filter-0-column');
    // The landing's own columns, then the lead's.
    const columns = await page.locator('#rule-filter-0-column option').allTextContents();
    expect(columns).toEqual(expect.arrayContaining(['Type de toiture', 'Facture mensuelle (€)', 'Source', 'UTM campagne']));
    await page.keyboard.type('Type de');
    await page.keyboard.press('Tab');
    expect(await page.locator('#rule-filter-0-op option').allTextContents()).toEqual(['est', "n'est pas", 'est parmi', "n'est pas parmi"]);
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('rule-filter-0-value');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#rule-filter-0-value').inputValue()).toBe('Tuiles');
    await page.locator('#rule-filter-add').scrollIntoViewIfNeeded();
    await shot('form');

    expect(await axeViolations(page)).toEqual([]);

    // A second filter, removed: the focus goes to 'Ajouter un filtre', not to the page.
    await page.locator('#rule-filter-add').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'rule-filter-1-column');
    await page.getByRole('button', { name: 'Retirer le filtre 2' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'rule-filter-add');

    await page.getByRole('button', { name: 'Créer la règle' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('.toasts').getByText('Règle ajoutée').first().waitFor();

    const [rule] = await query<{
      cap_hour: number;
      cap_week: number;
      cap_month: number;
      priority: number;
      weight: number;
      filters: unknown;
      exclusive: boolean;
      days: boolean[];
    }>(
      `SELECT cap_hour, cap_week, cap_month, priority, weight, filters, exclusive,
              ARRAY[monday, tuesday, wednesday, thursday, friday, saturday, sunday] AS days
         FROM rules WHERE name = 'Toitures en tuiles'`,
    );
    expect(rule).toEqual({
      cap_hour: 5,
      cap_week: 70,
      cap_month: 250,
      priority: 2,
      weight: 300,
      filters: [{ column: 'type_toiture', op: 'eq', value: 'Tuiles' }],
      exclusive: false,
      days: [true, true, true, true, true, true, false],
    });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('rule-name');
  });

  it("lists the rule with each capped window's fill as the engine counts it, and its priority", async () => {
    const [rule] = await query<{ id: number; customer_id: number }>(`SELECT id, customer_id FROM rules WHERE name = 'Toitures en tuiles'`);
    // Two sales of this hour in the engine's window counters (rule_windows), as the claim bumps them.
    await query(
      `INSERT INTO rule_windows (rule_id, span, start, count)
       SELECT $1, w.span, w.start, 2 FROM (SELECT now() AT TIME ZONE 'Europe/Paris' AS l) now,
              LATERAL (VALUES ('hour', date_trunc('hour', now.l)), ('week', date_trunc('week', now.l)), ('month', date_trunc('month', now.l))) AS w (span, start)
       ON CONFLICT (rule_id, span, start) DO UPDATE SET count = EXCLUDED.count`,
      [rule!.id],
    );
    const sold = (await listRules(app.server.ctx.db, rule!.customer_id)).find((r) => r.id === rule!.id)!.sold;
    // As the routing that bumps them does, a rule.fill event tells the screens (no screen polls).
    await writeEvents(
      app.server.ctx.db,
      'rule.fill',
      [
        {
          rule_id: rule!.id,
          customer_id: rule!.customer_id,
          today: { count: 0, leads_number: 20 },
          sold: { hour: sold.hour, week: sold.week, month: sold.month },
        },
      ],
      'admins',
    );
    await page.getByRole('tab', { name: 'Règles', exact: true }).click();
    const fill = page.locator(`[data-fill="${rule!.id}"]`);
    await fill.waitFor();
    // The fills follow the live events: the sales appear without reloading the list.
    await expect.poll(() => fill.textContent(), { timeout: 15_000 }).toBe(`${sold.hour}/5 h · 0/20 j · ${sold.week}/70 sem. · ${sold.month}/250 mois`);
    expect(sold.month).toBe(2);
    const row = page.getByRole('grid', { name: 'Règles' }).getByRole('row').filter({ hasText: 'Toitures en tuiles' });
    expect(await row.getByRole('gridcell').allTextContents()).toContain('2');
    await shot('list');
    expect(errors).toEqual([]);
  });
});

describe('landing settings', () => {
  it("sets a landing's max_buyers from its lead view by keyboard, and gives the focus back", async () => {
    const [landing] = await query<{ id: number }>(`SELECT id FROM landings WHERE name = 'Panneaux Solaires'`);
    await page.goto(`/landings_test/${landing!.id}`);
    const open = page.getByRole('button', { name: 'Réglages de la landing' });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Réglages · Panneaux Solaires' });
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect((await focused()).id).toBe('landing-settings-max_buyers');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('7');
    await page.keyboard.press('Enter');
    await dialog.getByText("Nombre d'acheteurs entre 1 et 5").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.locator('.toasts').getByText('Réglages de la landing enregistrés').first().waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect((await query<{ max_buyers: number }>('SELECT max_buyers FROM landings WHERE id = $1', [landing!.id]))[0]!.max_buyers).toBe(3);
    expect((await focused()).tag).not.toBe('body');
  });
});
