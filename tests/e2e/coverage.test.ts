// Issue 27 in the browser: the production map's 'Couverture' layer by keyboard, the palette's
// 'Zones sans acheteur', and 'Cibler les zones couvertes' on a Taboola campaign, sent only once
// confirmed (Enter on the question cancels). One boot, one sign-in.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxProvider } from '../../server/services/taboola/sandbox';
import { coveredTargeting } from '../../server/services/taboola/covered';
import { axeViolations, DEMO, DESKTOP, MOBILE, signIn, startApp, type App } from './harness';

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

const db = () => app.server.ctx.db;
const press = async (...keys: string[]) => {
  for (const k of keys) await page.keyboard.press(k);
};
const coverageLegend = () => page.getByRole('list', { name: 'Couverture maintenant' });
const uncovered = () => page.getByRole('heading', { name: /Zones sans acheteur \(\d+\)/ });
const campaignCodes = async (id: string) =>
  (await db().query<{ postal_codes: string[] }>('SELECT postal_codes FROM taboola_campaigns WHERE id = $1', [Number(id)])).rows[0].postal_codes;

describe('coverage', () => {
  it('turns the Couverture layer on and off with C, with its legend, tooltip words and the departments without a buyer', async () => {
    await page.goto('/production/pac');
    const map = page.getByRole('listbox', { name: /Carte de production/ });
    await map.waitFor();
    await page.locator('.production-view[data-saves]').waitFor();
    await map.focus();
    await press('c');
    await coverageLegend().waitFor();
    await uncovered().waitFor();
    // Every department is filled by its state: a colour or a pattern, named in words in its label.
    const fill = await page.locator('#map-dep-FR-2A').getAttribute('fill');
    expect(['#86efac', 'url(#map-cov-full)', 'url(#map-cov-closed)', '#e5e7eb']).toContain(fill);
    expect(await page.locator('#map-dep-FR-2A').getAttribute('aria-label')).toMatch(/Ouvert|Plein|Fermé|Aucune règle/);
    await page.getByRole('columnheader', { name: 'Règles ouvertes' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('listbox');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/cov-map-desktop.png' });
    await press('c');
    await coverageLegend().waitFor({ state: 'detached' });
    await page.locator('.map-legend-classes li').nth(1).waitFor();
  });

  it("opens 'Zones sans acheteur' from the palette anywhere, on a phone too", async () => {
    await page.setViewportSize(MOBILE);
    await page.goto('/');
    // The navbar's search opens the palette (its button is there once the shell is ready for keys too).
    await page
      .getByRole('button', { name: /Rechercher/ })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('combobox').waitFor();
    await page.keyboard.type('zones sans acheteur');
    await page
      .getByRole('dialog')
      .getByRole('option', { name: /Zones sans acheteur/ })
      .waitFor();
    await press('Enter');
    await page.waitForURL(/\/production\/pac$/);
    await uncovered().waitFor();
    await coverageLegend().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Nothing wider than the phone: the layer's button wraps with the others.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.screenshot({ path: '/tmp/cov-map-phone.png', fullPage: true });
    await page.setViewportSize(DESKTOP);
  });

  it('targets the covered areas of a Taboola campaign only once confirmed; Enter on the question cancels', async () => {
    // A rule of the linked landings open all day in the Gard, so that the demo has a department open now.
    const { rows: landings } = await db().query<{ id: number }>("SELECT id FROM landings WHERE name = 'PAC Air-Eau'");
    const { rows: customer } = await db().query<{ id: number }>(
      "INSERT INTO customers (name, email) VALUES ('Acheteur du Gard', 'gard@example.fr') RETURNING id",
    );
    await db().query(
      `INSERT INTO rules (name, customer_id, landing_ids, zip, leads_number, monday, tuesday, wednesday, thursday, friday, saturday, sunday)
       VALUES ('Gard toute la journée', $1, $2, '{30}', 10000, true, true, true, true, true, true, true)`,
      [customer[0].id, [landings[0].id]],
    );
    const { rows: campaign } = await db().query<{ id: number }>("SELECT id FROM taboola_campaigns WHERE name = 'PAC Gard – printemps'");
    const id = String(campaign[0].id);
    const before = await campaignCodes(id);
    const expected = await coveredTargeting(db(), sandboxProvider(db()), { accountId: 'ecohabitat-sud', campaignId: id });
    expect(expected.departements).toContain('30');

    await page.goto(`/taboola?account=ecohabitat-sud&campaign=${id}`);
    await page
      .getByText(/codes postaux ciblés \(INCLUDE\)/)
      .first()
      .waitFor();
    await page
      .locator('[data-field=campaign-landings] button')
      .getByText(/PAC Air-Eau/)
      .waitFor();
    await page.locator('[data-field=campaign] button:enabled').focus();
    await press('z');
    const question = page.getByRole('alertdialog');
    await question.getByText(/Avant\u202f: .*Après\u202f: .*Changement\u202f: /).waitFor();
    expect(await question.textContent()).toContain(`${expected.change.added.toLocaleString('fr-FR').replace(/\s/g, '\u202f')} codes ajoutés`);
    // Nothing sent while the question is asked; Annuler has the focus, so Enter cancels.
    expect(await campaignCodes(id)).toEqual(before);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Annuler');
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/cov-taboola-desktop.png' });
    await press('Enter');
    await question.waitFor({ state: 'detached' });
    expect(await campaignCodes(id)).toEqual(before);
    // The focus goes back once the question has gone, never to <body> for good.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');

    await page.locator('[data-field=campaign] button:enabled').focus();
    await press('z');
    await question.getByRole('button', { name: 'Envoyer ce ciblage' }).click();
    await page.locator('.toasts').getByText('Codes postaux mis à jour').first().waitFor();
    expect(await campaignCodes(id)).toEqual(expected.codes);
    expect(errors).toEqual([]);
  });
});
