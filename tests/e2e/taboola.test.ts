/**
 * The Taboola screen's send (issue 24, 1): the form starts from the campaign's targeting, and a
 * send that widens a paid campaign (ALL, or codes it does not target) shows before and after and
 * waits for a confirmation, by keyboard as by mouse.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, focusKept, signIn, startApp, type App } from './harness';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.server.ctx.db;
const toast = (page: Page, text: string | RegExp) => page.locator('.toasts').getByText(text).first().waitFor();
const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/taboola-${name}.png` });

async function campaign(name: string) {
  const { rows } = await db().query<{ id: number; account_id: string; targeting_type: string; postal_codes: string[] }>(
    'SELECT id, account_id, targeting_type, postal_codes FROM taboola_campaigns WHERE name = $1',
    [name],
  );
  return rows[0]!;
}

const open = (page: Page, c: { id: number; account_id: string }) => page.goto(`/taboola?account=${c.account_id}&campaign=${c.id}`);

describe('Taboola send', () => {
  it('keyboard: the form starts from the INCLUDE list; ALL shows before and after, Escape sends nothing, confirming sends', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const gard = await campaign('PAC Gard – printemps');
    expect(gard.targeting_type).toBe('INCLUDE');
    const count = gard.postal_codes.length;
    await open(page, gard);
    await page.getByText(`${count} codes postaux ciblés (INCLUDE)`).waitFor();
    // The next send is the list the campaign has, never ALL.
    expect(await page.getByRole('radio', { name: /INCLUDE/ }).isChecked()).toBe(true);
    await page.getByText(`${count} codes postaux prêts à envoyer`).waitFor();

    // ALL from the palette, then `s`: a confirmation naming before and after.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('type de ciblage all');
    await page
      .getByRole('dialog')
      .getByRole('option', { name: /Type de ciblage\s:\sALL/ })
      .waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.getByRole('radio', { name: /^ALL/ }).isChecked()).toBe(true);
    await page.keyboard.press('s');
    const dialog = page.getByRole('alertdialog', { name: 'Élargir la campagne ?' });
    await dialog.getByText(`Avant : ${count} codes postaux ciblés (INCLUDE). Après : tous les codes postaux (ALL).`, { exact: false }).waitFor();
    await shot(page, 'widen');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(await campaign('PAC Gard – printemps')).toMatchObject({ targeting_type: 'INCLUDE', postal_codes: gard.postal_codes });

    // Again, confirmed this time: sent, and the form starts from the new targeting.
    await page.keyboard.press('s');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Élargir et envoyer' }).focus();
    await page.keyboard.press('Enter');
    await toast(page, 'Codes postaux mis à jour');
    await page.getByText('Tous les codes postaux (ALL)').waitFor();
    expect((await campaign('PAC Gard – printemps')).targeting_type).toBe('ALL');
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('mouse: the same list, or fewer codes, is sent at once; a new code asks first', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const herault = await campaign('PAC Hérault – retargeting');
    await open(page, herault);
    await page.getByText(`${herault.postal_codes.length} codes postaux prêts à envoyer`).waitFor();
    await page.getByRole('button', { name: /Envoyer le ciblage/ }).click();
    await toast(page, 'Codes postaux mis à jour');
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect((await campaign('PAC Hérault – retargeting')).postal_codes.sort()).toEqual([...herault.postal_codes].sort());

    // Department 30 instead of 34: codes the campaign does not target, so a confirmation first.
    await page.getByRole('textbox', { name: 'Départements' }).fill('30');
    await page.getByRole('button', { name: 'Cibler des départements' }).click();
    await toast(page, /codes postaux pour 30/);
    await page.getByRole('button', { name: /Envoyer le ciblage/ }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Élargir la campagne ?' });
    await dialog.getByText(/Après\s:\s\d+ codes postaux ciblés \(INCLUDE\)/).waitFor();
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await campaign('PAC Hérault – retargeting')).postal_codes.every((c) => c.startsWith('34'))).toBe(true);
    await page.getByRole('button', { name: /Envoyer le ciblage/ }).click();
    await dialog.getByRole('button', { name: 'Élargir et envoyer' }).click();
    await expect.poll(async () => (await campaign('PAC Hérault – retargeting')).postal_codes.every((c) => c.startsWith('30'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
