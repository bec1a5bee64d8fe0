// The production map's colour and focus (issue 24 item 12), layout shifts as data arrives (item
// 20), and date fields in the console's language whatever the browser's (item 21).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DESKTOP, layoutShift, MOBILE, signIn, startApp, watchLayoutShifts, type App } from './harness';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.server.ctx.db;
const map = (page: Page) => page.getByRole('listbox', { name: /Carte de production/ });
const option = (page: Page, code: string) => page.locator(`#map-dep-FR-${code}`);
const savedSelection = async (category: string) =>
  (await db().query<{ departements: string[] }>('SELECT departements FROM production_selections WHERE category = $1', [category])).rows[0]?.departements ??
  null;
const savedColor = async (category: string, departement: string) =>
  (await db().query<{ color: string | null }>('SELECT color FROM department_notes WHERE category = $1 AND departement = $2', [category, departement])).rows[0]
    ?.color ?? null;
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName);
const tooltip = (page: Page) => page.locator('.map-tooltip');

async function openMap(page: Page, category: string) {
  await page.goto(`/production/${category}`);
  await map(page).waitFor();
  await page.locator('.map-legend-classes li').nth(1).waitFor();
  await page.locator('.production-view[data-saves]').waitFor();
}

describe('layout shifts as the data arrives (item 20)', () => {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', MOBILE],
  ] as const) {
    it(`stay well under 0.1 on the production map and the lead view (${size})`, async () => {
      const { page, errors } = await app.page({ viewport });
      await signIn(page, DEMO.admin);
      await watchLayoutShifts(page);
      const shifts: Record<string, number[]> = { map: [], leads: [] };
      // The data in either order: the user's record (and so the toolbars) last, then first.
      for (const meDelay of [800, 0]) {
        await page.unrouteAll();
        await page.route('**/api/me', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, meDelay));
          await route.continue();
        });
        await openMap(page, 'pac');
        await page.getByRole('grid', { name: 'Statistiques' }).getByRole('gridcell', { name: 'Ain', exact: true }).waitFor();
        await page.waitForTimeout(500);
        shifts.map.push(await layoutShift(page));
        await page.goto('/landings_test/1');
        await page.getByRole('grid', { name: 'Leads' }).locator('[role=row] [role=gridcell]').first().waitFor();
        await page.waitForTimeout(1000);
        shifts.leads.push(await layoutShift(page));
      }
      console.log(size, JSON.stringify(shifts));
      await page.screenshot({ path: `/tmp/map-dates-cls-${size}.png` });
      for (const value of [...shifts.map, ...shifts.leads]) expect(value).toBeLessThan(0.05);
      expect(errors).toEqual([]);
    });
  }
});

describe('the production map: colours, focus and tooltip (item 12)', () => {
  it('selecting only looks: colours are written when a colour is chosen, then with each selection', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    await openMap(page, 'pac');
    // Seeded: Bouches-du-Rhône red, Vaucluse without a colour.
    expect(await savedColor('pac', '13')).toBe('#dc2626');
    await option(page, '13').click();
    await expect.poll(() => savedSelection('pac')).toEqual(['13']);
    await option(page, '84').click({ modifiers: ['Control'] });
    await expect.poll(() => savedSelection('pac')).toEqual(['13', '84']);
    expect(await savedColor('pac', '13')).toBe('#dc2626');
    expect(await savedColor('pac', '84')).toBeNull();
    // Hovering shows the tooltip; nothing was checked until now.
    await option(page, '84').hover();
    await tooltip(page).getByText('Vaucluse (84)').waitFor();
    expect(await page.getByRole('radio', { checked: true }).count()).toBe(0);

    // Choosing a colour gives it to the selection, and to the next selections (docs/product.md §2).
    await page.getByRole('radio', { name: 'vert' }).click();
    await expect.poll(() => savedColor('pac', '84')).toBe('#16a34a');
    expect(await savedColor('pac', '13')).toBe('#16a34a');
    await option(page, '01').click();
    await expect.poll(() => savedColor('pac', '01')).toBe('#16a34a');
    expect(await savedSelection('pac')).toEqual(['01']);
    await page.screenshot({ path: '/tmp/map-dates-colour.png' });
    expect(errors).toEqual([]);
  });

  it('the swatches are one radio group: one Tab stop, the arrows choose', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    await openMap(page, 'pv');
    const group = page.getByRole('radiogroup', { name: 'Couleur de la sélection' });
    const radios = group.getByRole('radio');
    expect(await radios.count()).toBe(7);
    expect(await radios.evaluateAll((els) => els.filter((e) => e.getAttribute('tabindex') !== '-1').map((e) => e.getAttribute('aria-label')))).toEqual([
      'orange',
    ]);
    // Tab from the landings select reaches the group once, on its first colour.
    await page.locator('.production-landings button').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('orange');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('rouge');
    await expect.poll(() => group.getByRole('radio', { checked: true }).getAttribute('aria-label')).toBe('rouge');
    const selected = (await savedSelection('pv')) ?? ['30', '34'];
    await expect.poll(() => savedColor('pv', selected[0])).toBe('#dc2626');
    await page.keyboard.press('End');
    await group.getByRole('radio', { name: 'Retirer la couleur', checked: true }).waitFor();
    await expect.poll(() => savedColor('pv', selected[0])).toBeNull();
    // Tab leaves the group for the next control: the checked radio is its only stop.
    await page.keyboard.press('Tab');
    expect(await focused(page)).not.toBe('radio');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Retirer la couleur');
    expect(errors).toEqual([]);
  });

  it('opening PV or AUTRE from the sidebar puts the focus on the map, not on the Statistiques below the fold', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    for (const [category, how] of [
      ['pv', 'keyboard'],
      ['other', 'mouse'],
    ] as const) {
      await page.goto('/');
      const link = page.locator(`nav.sidebar a[href="/production/${category}"]`);
      if (!(await link.isVisible()))
        await page
          .locator('nav.sidebar')
          .getByRole('button', { name: /Production/ })
          .click();
      if (how === 'keyboard') {
        await link.focus();
        await page.keyboard.press('Enter');
      } else await link.click();
      await page.getByRole('grid', { name: 'Statistiques' }).getByRole('gridcell', { name: 'Ain', exact: true }).waitFor();
      await page.locator('.production-view[data-saves]').waitFor();
      expect(await focused(page), category).toBe('listbox');
    }
    expect(errors).toEqual([]);
  });

  it('at 390 px the tooltip waits for the pointer or an arrow key, never shows as the map opens', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.staff);
    await openMap(page, 'other');
    await page.getByRole('grid', { name: 'Statistiques' }).getByRole('gridcell', { name: 'Ain', exact: true }).waitFor();
    expect(await focused(page)).toBe('listbox');
    expect(await tooltip(page).isVisible()).toBe(false);
    await page.screenshot({ path: '/tmp/map-dates-phone-open.png' });
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tooltip(page).isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/map-dates-phone-arrow.png' });
    expect(errors).toEqual([]);
  });
});

describe("date fields in the console's language, not the browser's (item 21)", () => {
  /** What a date field shows, without the direction marks around its segments. */
  const shown = (page: Page, name: string) =>
    page
      .getByRole('group', { name, exact: true })
      .first()
      .evaluate((el) => (el as HTMLElement).innerText.replace(/[\u2066-\u2069\u200e\u200f\s▾]/g, ''));
  const frenchDay = (iso: string) => iso.split('-').reverse().join('/');

  it('an English browser in the French console reads and types JJ/MM/AAAA on the map, the statistics, the exports and the grid filters', async () => {
    const { page, errors } = await app.page({ locale: 'en-US' });
    await page.addInitScript(() => localStorage.setItem('language', 'fr'));
    await signIn(page, DEMO.admin);

    // The production map: its period in French order, typed by keys, picked in the calendar by keys.
    await openMap(page, 'pac');
    const start = await page.locator('input[type=hidden][name=start]').inputValue();
    expect(await shown(page, 'Du')).toBe(frenchDay(start));
    await page.getByRole('group', { name: 'Du', exact: true }).getByRole('spinbutton').first().click();
    await page.keyboard.type('01092026');
    await expect.poll(() => page.locator('input[type=hidden][name=start]').inputValue()).toBe('2026-09-01');
    expect(await shown(page, 'Du')).toBe('01/09/2026');
    const end = await page.locator('input[type=hidden][name=end]').inputValue();
    await page.getByRole('group', { name: 'Au', exact: true }).getByRole('button').focus();
    await page.keyboard.press('Enter');
    const calendar = page.getByRole('dialog').getByRole('grid');
    await calendar.waitFor();
    await page.screenshot({ path: '/tmp/map-dates-calendar.png' });
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    const dayBefore = new Date(`${end}T12:00:00Z`);
    dayBefore.setUTCDate(dayBefore.getUTCDate() - 1);
    await expect.poll(() => page.locator('input[type=hidden][name=end]').inputValue()).toBe(dayBefore.toISOString().slice(0, 10));
    await calendar.waitFor({ state: 'detached' });

    // The lead statistics.
    await page.goto('/landings_test/1?tab=production');
    await page.locator('input[type=hidden][name=stats-start]').waitFor({ state: 'attached' });
    expect(await shown(page, 'Du')).toBe(frenchDay(await page.locator('input[type=hidden][name=stats-start]').inputValue()));

    // The grid's date filter: the popover opens on its first field, empty: JJ/MM/AAAA.
    await page.goto('/landings_test/1');
    const grid = page.getByRole('grid', { name: 'Leads' });
    await grid.locator('[role=row] [role=gridcell]').first().waitFor();
    await grid.getByRole('button', { name: /^Filtrer Créé le/ }).click();
    await expect.poll(() => focused(page)).toBe('spinbutton');
    expect(await shown(page, 'Créé le : du')).toBe('JJ/MM/AAAA');
    await page.keyboard.type('01102026');
    await expect.poll(() => grid.getByRole('button', { name: /^Filtrer Créé le/ }).textContent()).toMatch(/^01\/10\/2026/);
    await page.keyboard.press('Escape');

    // The exports' creation dates and the custom export's period.
    await page.goto('/exports/0');
    await page.getByRole('group', { name: 'Créés du', exact: true }).waitFor();
    expect(await shown(page, 'Créés du')).toBe('JJ/MM/AAAA');
    await page.getByRole('button', { name: /Générer un export personnalisé/ }).click();
    expect(await shown(page, 'Du')).toBe(frenchDay(await page.locator('input[type=hidden][name=big-start]').inputValue()));
    await page.screenshot({ path: '/tmp/map-dates-exports.png' });
    expect(errors).toEqual([]);
  });
});
