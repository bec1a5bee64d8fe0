// Views a team shares (issue 28): the lead list in its URL (a link reopens it, back and forward
// walk its changes), a view saved by keyboard that the sidebar and the palette list with its
// count, and a shared view of another that a normal user cannot change; axe and the phone width.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, MOBILE, signIn, startApp, type App } from './harness';

let app: App;
let landing: number;

beforeAll(async () => {
  app = await startApp();
  landing = (await app.server.ctx.db.query<{ id: number }>("SELECT id FROM landings WHERE key = 'pac-air-eau'")).rows[0]!.id;
}, 180_000);
afterAll(() => app?.close());

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/views-${name}.png` });
const grid = (page: Page) => page.getByRole('grid', { name: 'Leads' });
const filter = (page: Page, column: string) => grid(page).getByRole('searchbox', { name: `Filtrer ${column}` });
const selectedTab = async (page: Page) => (await page.getByRole('tab', { selected: true }).textContent())?.trim();
const search = (page: Page) => new URL(page.url()).search;

describe('views a team shares', () => {
  it('reopens a list from its link, walks back and forward, saves it by keyboard into the sidebar and the palette', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);

    // A link names the tab, the sort and a filter: the list opens exactly so.
    await page.goto(`/landings_test/${landing}?tab=archived&sort=created_at.asc&departement=30`);
    await grid(page).waitFor();
    expect(await selectedTab(page)).toBe('Archivés');
    await expect.poll(() => filter(page, 'Dép.').inputValue()).toBe('30');
    expect(
      await grid(page)
        .getByRole('columnheader', { name: /Créé le/ })
        .first()
        .getAttribute('aria-sort'),
    ).toBe('ascending');

    // Nom typed in one burst makes one step of history; the tab is another.
    await filter(page, 'Nom').fill('a');
    await page.waitForURL(/nom=a/);
    await filter(page, 'Nom').fill('an');
    await page.waitForURL(/nom=an/);
    await page.getByRole('tab', { name: 'Nouveaux' }).click();
    await page.waitForURL((url) => !url.search.includes('tab='));
    expect(search(page)).toBe('?sort=created_at.asc&departement=30&nom=an');
    await page.goBack();
    await page.waitForURL(/tab=archived/);
    expect(await selectedTab(page)).toBe('Archivés');
    await expect.poll(() => filter(page, 'Nom').inputValue()).toBe('an');
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes('nom='));
    await expect.poll(() => filter(page, 'Nom').inputValue()).toBe('');
    expect(await filter(page, 'Dép.').inputValue()).toBe('30');
    await page.goForward();
    await page.waitForURL(/nom=an/);
    await expect.poll(() => filter(page, 'Nom').inputValue()).toBe('an');

    // An unknown column and sort in a link fall back to the plain list.
    await page.goto(`/landings_test/${landing}?tab=nowhere&sort=inconnue.up&inconnue=1`);
    await grid(page).waitFor();
    expect(await selectedTab(page)).toBe('Nouveaux');

    // v saves the list, shared, by keyboard alone.
    await page.goto(`/landings_test/${landing}?tab=archived&departement=30`);
    await grid(page).waitFor();
    await grid(page).focus();
    await page.keyboard.press('v');
    const dialog = page.getByRole('dialog', { name: 'Enregistrer la vue' });
    await dialog.waitFor();
    await page.keyboard.type('PAC 30 > 100 m²');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await shot(page, 'dialog');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // react-aria gives the focus back to the trigger a frame after the dialog closes.
    await expect.poll(() => page.evaluate(() => document.activeElement !== document.body)).toBe(true);

    const count = (
      await app.server.ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM leads WHERE landing_id = $1 AND entry_status = 'archived' AND departement ILIKE '%30%'",
        [landing],
      )
    ).rows[0]!.n;
    const link = page.locator('nav.sidebar').getByRole('link', { name: /^PAC 30 > 100 m²/ });
    await link.waitFor();
    expect(await link.locator('.menu-count').textContent()).toBe(String(count));
    expect(await link.getAttribute('aria-current')).toBe('page');
    await shot(page, 'desktop');
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('Control+k');
    await page.keyboard.type('Vue PAC 30 > 100');
    const entry = page.getByRole('option', { name: /Vue\s: PAC 30 > 100 m²/ });
    await entry.waitFor();
    expect(await entry.textContent()).toContain(`${count} leads`);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });

  it('lets a normal user open a shared view of another, never change it; the phone shows the views too', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.staff, `/landings_test/${landing}`);
    await grid(page).waitFor();
    // The admin's shared demo view, opened from the palette.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('Vue PAC 30 – Maisons');
    await page.getByRole('option', { name: /Vue\s: PAC 30 – Maisons/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/type_logement=Maison/);
    await grid(page).waitFor();
    const tools = page.getByRole('group', { name: 'Vues' });
    await tools.getByRole('button', { name: 'Enregistrer la vue' }).waitFor();
    expect(await tools.getByRole('button', { name: /Renommer la vue|Supprimer la vue/ }).count()).toBe(0);
    await page.keyboard.press('Control+b');
    await page
      .locator('nav.sidebar')
      .getByRole('link', { name: /^PAC 30 – Maisons/ })
      .waitFor();
    await shot(page, 'phone');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
