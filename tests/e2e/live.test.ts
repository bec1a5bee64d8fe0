// Issue 28 in Chromium: two accounts on one landing. What one archives leaves the other's list
// with a notice naming who did it, and the other's selection; a new intake shows the
// 'nouveaux leads' bar on both; each sees the other's initials. Keyboard and axe throughout.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, MOBILE, signIn, startApp, type App } from './harness';
import { createLanding } from './landing-fixture';

let app: App;
let landing: { id: number; key: string };
const names: Record<string, string> = {};

async function intake(i: number) {
  const res = await fetch(`${app.url}/api/intake/${landing.key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nom: `Vif${i}`, prenom: 'Test', telephone: `06${String(i).padStart(8, '0')}`, email: `vif${i}@test.fr`, code_postal: '30000' }),
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  app = await startApp();
  const { db } = app.server.ctx;
  landing = await createLanding(db, 'Live PAC');
  for (let i = 1; i <= 5; i++) await intake(i);
  for (const who of [DEMO.admin, DEMO.staff])
    names[who.email] = (await db.query<{ name: string }>('SELECT name FROM users WHERE email = $1', [who.email])).rows[0]!.name;
}, 180_000);
afterAll(() => app?.close());

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/live-${name}.png` });
const grid = (page: Page) => page.getByRole('grid', { name: 'Leads' });
const row = (page: Page, name: string) =>
  grid(page)
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell', { name, exact: true }) });
const focusedName = (page: Page) => grid(page).locator('.lg-row.is-focused [role=gridcell]').nth(3).textContent();
const focusOnGrid = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('role') === 'grid');
const totals = (page: Page) => page.locator('.leads-totals').textContent();

async function open(who: { email: string; password: string }) {
  const { page, errors } = await app.page();
  await signIn(page, who);
  await page.goto(`/landings_test/${landing.id}`);
  await row(page, 'Vif1').waitFor();
  await grid(page).focus();
  return { page, errors };
}

describe('the live lead view', () => {
  it('two accounts on one landing: presence, leads archived by one leave the other list and selection with a notice, a new intake waits behind the bar', async () => {
    const admin = await open(DEMO.admin);
    const staff = await open(DEMO.staff);
    const a = admin.page;
    const s = staff.page;

    // Each sees the other's initials, named for screen readers and in the tooltip.
    await a.locator('.leads-presence').getByText(`Aussi sur cette liste\u202f: ${names[DEMO.staff.email]}`).waitFor();
    await s.locator('.leads-presence').getByText(`Aussi sur cette liste\u202f: ${names[DEMO.admin.email]}`).waitFor();

    // Staff selects Vif5 and Vif4 (the newest, on top), and keeps the cursor on Vif2.
    await s.keyboard.press('x');
    await s.keyboard.press('j');
    await s.keyboard.press('x');
    for (let i = 0; i < 2; i++) await s.keyboard.press('j');
    expect(await focusedName(s)).toBe('Vif2');
    await expect.poll(() => totals(s)).toMatch(/^5 leads · 2 sélectionnés$/);

    // The admin archives Vif5 and Vif4 (the first two rows) by keyboard.
    await a.keyboard.press('x');
    await a.keyboard.press('j');
    await a.keyboard.press('x');
    await a.keyboard.press('a');
    await a.getByRole('status').filter({ hasText: 'Leads archivés (2)' }).waitFor();

    // On staff's screen they leave the list and the selection, with who did it; the cursor stays on Vif2.
    const notice = s.locator('.leads-notice');
    await notice.getByText(`Archivés par ${names[DEMO.admin.email]}\u202f: 2 leads, dont 2 sélectionnés, retirés de la sélection`).waitFor();
    await row(s, 'Vif5').waitFor({ state: 'detached' });
    expect(await row(s, 'Vif4').count()).toBe(0);
    expect(await focusedName(s)).toBe('Vif2');
    expect(await totals(s)).toBe('3 leads · aucun sélectionné');
    expect(await focusOnGrid(s)).toBe(true);
    // The admin's own change gives the admin no notice.
    expect(await a.locator('.leads-notice').count()).toBe(0);

    // A new lead: both get the bar, neither list moves.
    await intake(6);
    for (const page of [a, s]) await page.locator('.leads-arrived').getByText('1 nouveau lead').waitFor();
    expect(await row(s, 'Vif6').count()).toBe(0);
    expect(await focusedName(s)).toBe('Vif2');
    expect(await axeViolations(s)).toEqual([]);
    await shot(s, 'desktop');
    await s.setViewportSize(MOBILE);
    await shot(s, 'phone');
    expect(await axeViolations(s)).toEqual([]);

    // '.' shows it; the cursor stays on its lead and the keys on the list.
    await s.keyboard.press('.');
    await row(s, 'Vif6').waitFor();
    expect(await s.locator('.leads-arrived').count()).toBe(0);
    expect(await focusedName(s)).toBe('Vif2');
    expect(await focusOnGrid(s)).toBe(true);
    // The admin shows it with the bar's button; closing the notice gives the keys back to the list.
    await a
      .locator('.leads-arrived')
      .getByRole('button', { name: /Afficher/ })
      .click();
    await row(a, 'Vif6').waitFor();
    expect(await focusOnGrid(a)).toBe(true);
    await notice.getByRole('button', { name: "Fermer l'avis" }).focus();
    await s.keyboard.press('Enter');
    await notice.waitFor({ state: 'detached' });
    expect(await focusOnGrid(s)).toBe(true);

    expect([...admin.errors, ...staff.errors]).toEqual([]);
    await a.context().close();
    await s.context().close();
  });
});
