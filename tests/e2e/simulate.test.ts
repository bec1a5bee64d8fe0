// Issue 27 in Chromium on the demo: the rule form tells, as the admin types, what the rule would
// have taken over the last 30 days (debounced, a stale request cancelled), announced politely, its
// detail a keyboard disclosure; axe on it; the form at phone width.
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleSimulation } from '../../src/api/rules/contract';
import { axeViolations, DEMO, MOBILE, signIn, startApp, type App } from './harness';

let app: App;
let page: Page;
let errors: string[];
/** The simulations the page asked for. */
const asked: Request[] = [];
/** The customers' list is held back until the first test has opened the select. */
let releaseCustomers: () => void;
const customersHeld = new Promise<void>((resolve) => (releaseCustomers = resolve));
beforeAll(async () => {
  app = await startApp();
  ({ page, errors } = await app.page());
  page.on('request', (r) => r.url().endsWith('/api/customers/rules/simulate') && asked.push(r));
  await page.route('**/api/customers', (route) => customersHeld.then(() => route.continue()));
  await signIn(page, DEMO.admin, '/customers/rules/0?tab=create');
  await page.getByLabel('Nom de la règle').waitFor();
});
afterAll(async () => {
  await app?.close();
});

const line = () => page.locator('.rule-simulation-line');
const answered = () => page.waitForResponse((r) => r.url().endsWith('/api/customers/rules/simulate') && r.status() === 200);

describe('the rule form’s simulation', () => {
  it('answers once the typing pauses, with the line of the last draft; a draft changed meanwhile cancels the stale request', async () => {
    expect(await line().getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => line().textContent()).toBe("Complétez la règle pour voir ce qu'elle aurait pris sur les 30 derniers jours.");

    // The header's customer filter needs no customer to say 'Tous les clients'.
    expect(await page.locator('[data-rules-filter] .lives-select-value').textContent()).toBe('Tous les clients');
    await page.getByRole('button', { name: /Choisir un client/ }).focus();
    await page.keyboard.press('ArrowDown');
    // Opened before its choices came, it says so, then lists them: the key is not lost.
    await page.getByRole('listbox').getByText('Chargement…').waitFor();
    releaseCustomers();
    await page.getByRole('option', { name: 'Soleil Conseil' }).waitFor();
    await page.keyboard.type('Soleil');
    await page.keyboard.press('Enter');
    await page.getByLabel('Nom de la règle').fill('Essai simulation');
    await page.getByRole('button', { name: /Choisir les landings/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option', { name: 'Panneaux Solaires' }).waitFor();
    await page.keyboard.type('Panneaux');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    const first = answered();
    await page.getByRole('button', { name: 'Tous les jours' }).click();
    const body = (await (await first).json()) as { data: RuleSimulation };
    const from = body.data.taken_from.reduce((n, t) => n + t.leads, 0);
    await expect
      .poll(() => line().textContent())
      .toBe(`Sur les 30 derniers jours\u202f: ${body.data.taken} lead${body.data.taken > 1 ? 's' : ''}, dont ${from} pris à d'autres règles`);
    // The demo's panels sell: the draft takes some.
    expect(body.data.leads_considered).toBeGreaterThan(0);

    // Typing '150' at once asks once, after the pause.
    const before = asked.length;
    const typed = answered();
    await page.getByLabel('Leads par jour').fill('');
    await page.getByLabel('Leads par jour').pressSequentially('150');
    await typed;
    expect(asked.length - before).toBe(1);
    expect(JSON.parse(asked.at(-1)!.postData()!)).toMatchObject({ days: 30, rule: { leads_number: 150 } });

    // A request still unanswered when the draft changes is cancelled; the line reads the new draft's answer.
    const held: Route[] = [];
    await page.route('**/api/customers/rules/simulate', (route) => (held.length === 0 ? held.push(route) : route.continue()));
    const stale = page.waitForRequest('**/api/customers/rules/simulate');
    await page.getByLabel('Leads par jour').fill('3');
    await stale;
    const cancelled = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/customers/rules/simulate'));
    const fresh = answered();
    await page.getByLabel('Leads par jour').fill('4');
    await cancelled;
    const latest = (await (await fresh).json()) as { data: RuleSimulation };
    await page.unroute('**/api/customers/rules/simulate');
    expect(JSON.parse(asked.at(-1)!.postData()!)).toMatchObject({ rule: { leads_number: 4 } });
    expect(latest.data.by_day.every((d) => d.taken <= 4)).toBe(true);
    await expect.poll(() => line().textContent()).toMatch(new RegExp(`^Sur les 30 derniers jours\u202f: ${latest.data.taken} lead`));
  });

  it('opens its detail by keyboard: the rules it takes from and each day, capped days with the hour; axe finds nothing', async () => {
    const summary = page.locator('.rule-simulation-detail summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    const rows = page.locator('.rule-simulation-days tbody tr');
    await expect.poll(() => rows.count()).toBe(30);
    // Four a day against the demo's traffic: some day is full, at an hour.
    const full = await page.locator('.rule-simulation-days tbody td:nth-child(3)').allTextContents();
    expect(full.some((t) => /^\d\d:\d\d$/.test(t))).toBe(true);
    expect(await page.locator('.rule-simulation-detail').textContent()).toMatch(/Leads invendus/);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
    await page.locator('.rule-simulation').screenshot({ path: '/tmp/simulate-detail.png' });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('fits a phone: nothing wider than the screen', async () => {
    await page.setViewportSize(MOBILE);
    await page.locator('.rule-simulation').scrollIntoViewIfNeeded();
    const box = await page.locator('.rule-simulation').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(MOBILE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.screenshot({ path: '/tmp/simulate-phone.png' });
    expect(errors).toEqual([]);
  });
});
