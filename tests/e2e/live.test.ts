// Issue 28 in Chromium: two accounts on one landing. What one archives leaves the other's list
// with a notice naming who did it, and the other's selection; a new intake shows the
// 'nouveaux leads' bar on both; each sees the other's initials; the status tabs' counts and the
// saved views' count in the sidebar follow on both, moving nothing on screen (layout shift and
// boxes measured, desktop and phone); "all N matching" acts on the leads shown, not on those
// arrived since; the bar, the notice and the presence switch language. Keyboard and axe throughout.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, DESKTOP, layoutShift, MOBILE, signIn, startApp, watchLayoutShifts, type App } from './harness';
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
  // A view shared by the admin: the sidebar shows its count of leads.
  await db.query(
    `INSERT INTO views (owner_id, name, shared, landing_ids, tab, filters) SELECT id, 'Vifs à traiter', true, $1, 'new', '{"contains":{},"values":{},"dates":{}}' FROM users WHERE email = $2`,
    [[landing.id], DEMO.admin.email],
  );
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
/** A status tab's count, drawn by CSS after its name. */
const tabCount = (page: Page, name: string) => page.getByRole('tab', { name }).locator('.leads-tab-count').getAttribute('data-count');
const viewCount = (page: Page) =>
  page
    .locator('nav.sidebar')
    .getByRole('link', { name: /^Vifs à traiter/ })
    .locator('.menu-count')
    .textContent();
/** The page's layout shifts not caused by its own input, summed from its first paint (as map-dates measures them). */
/** Where the tabs, the toolbar and the grid are. */
const boxes = (page: Page) =>
  page.evaluate(() =>
    ['.screen-tablist', '.leads-bar', '[role=grid]'].map((selector) => {
      const r = document.querySelector(selector)!.getBoundingClientRect();
      return [r.x, r.y, r.width, r.height];
    }),
  );
const nextFrames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
/** The end of the transitions under way (the sidebar's, after a resize). */
const transitionsEnded = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished),
    ),
  );

/** Moves the two leads of the tab `from` to another status with its key, on the admin's screen. */
async function moveBoth(page: Page, from: RegExp, key: string) {
  await page.getByRole('tab', { name: from }).click();
  await row(page, 'Vif5').waitFor();
  await grid(page).focus();
  for (const k of ['x', 'j', 'x', key]) await page.keyboard.press(k);
  await row(page, 'Vif5').waitFor({ state: 'detached' });
}

/** The counts are read again a second after the events that change them (src/api/events/live.ts), then fetched. */
const COUNTS = { timeout: 5_000 };

/** The boxes once they stay put for two frames: after a resize, the sidebar's transition can start a frame late. */
async function settledBoxes(page: Page) {
  let last = JSON.stringify(await boxes(page));
  for (let i = 0; i < 50; i++) {
    await transitionsEnded(page);
    await nextFrames(page);
    const now = JSON.stringify(await boxes(page));
    if (now === last) return JSON.parse(now) as number[][];
    last = now;
  }
  throw new Error(`the layout is still moving: ${last}`);
}

/** Counts change while nothing else does on `page`: no layout shift, every box where it was. */
async function countsMoveNothing(page: Page, change: () => Promise<void>, counts: Record<string, string>) {
  const settled = await settledBoxes(page);
  const before = { shift: await layoutShift(page), boxes: settled };
  await change();
  for (const [tab, count] of Object.entries(counts)) await expect.poll(() => tabCount(page, tab), COUNTS).toBe(count);
  await nextFrames(page);
  expect(await layoutShift(page)).toBe(before.shift);
  expect(await boxes(page)).toEqual(before.boxes);
}

async function open(who: { email: string; password: string }) {
  const { page, errors } = await app.page();
  await watchLayoutShifts(page);
  await signIn(page, who, `/landings_test/${landing.id}`);
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
    // The tabs' counts, in the tabs' names; the saved view's in the sidebar.
    await s.getByRole('tab', { name: 'Nouveaux 5', exact: true }).waitFor();
    expect(await tabCount(s, 'Archivés')).toBe('0');
    expect(await viewCount(s)).toBe('5');
    console.log('layout shift of the lead view, counts arrived', await layoutShift(s));
    expect(await layoutShift(s)).toBeLessThan(0.05);

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
    // The tabs' counts follow on both screens, the one not shown too.
    for (const page of [a, s]) {
      await expect.poll(() => tabCount(page, 'Archivés'), COUNTS).toBe('2');
      expect(await tabCount(page, 'Nouveaux')).toBe('3');
    }
    await expect.poll(() => viewCount(s), COUNTS).toBe('3');

    // A new lead: both get the bar, neither list moves.
    await intake(6);
    for (const page of [a, s]) await page.locator('.leads-arrived').getByText('1 nouveau lead').waitFor();
    await expect.poll(() => tabCount(s, 'Nouveaux'), COUNTS).toBe('4');
    expect(await row(s, 'Vif6').count()).toBe(0);
    expect(await focusedName(s)).toBe('Vif2');
    expect(await axeViolations(s)).toEqual([]);
    await shot(s, 'desktop');
    // In English: the bar, the notice and the presence switch with the language.
    await s
      .locator('.navbar')
      .getByRole('button', { name: /Langue/ })
      .click();
    await s
      .getByRole('menuitemradio', { name: 'English' })
      .or(s.getByRole('menuitem', { name: 'English' }))
      .click();
    await s.locator('.leads-arrived').getByText('1 new lead').waitFor();
    await s.locator('.leads-arrived').getByRole('button', { name: 'Show' }).waitFor();
    await notice.getByText(`Archived by ${names[DEMO.admin.email]}: 2 leads, including 2 selected, removed from the selection`).waitFor();
    await s.locator('.leads-presence').getByText(`Also on this list: ${names[DEMO.admin.email]}`).waitFor();
    await shot(s, 'english');
    await s
      .locator('.navbar')
      .getByRole('button', { name: /Language/ })
      .click();
    await s
      .getByRole('menuitemradio', { name: 'Français' })
      .or(s.getByRole('menuitem', { name: 'Français' }))
      .click();
    await s.locator('.leads-arrived').getByText('1 nouveau lead').waitFor();
    await grid(s).focus();
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

    // Only counts change on staff's screen (the admin moves the archived leads to Mauvais and
    // back): nothing moves, on a phone as on a desktop.
    await countsMoveNothing(s, () => moveBoth(a, /^Archivés/, 'm'), { Archivés: '0', Mauvais: '2' });
    await s.setViewportSize(DESKTOP);
    await countsMoveNothing(s, () => moveBoth(a, /^Mauvais/, 'a'), { Archivés: '2', Mauvais: '0' });
    await shot(s, 'desktop-counts');
    await s.setViewportSize(MOBILE);

    // "All N matching" is the leads shown: Vif7 arrived meanwhile, behind the bar, and stays new.
    await intake(7);
    await s.locator('.leads-arrived').getByText('1 nouveau lead').waitFor();
    await grid(s).focus();
    await s.keyboard.press('Control+a');
    await s.keyboard.press('Control+a');
    await s.getByText('Les 4 résultats correspondants sont sélectionnés.').waitFor();
    await s.keyboard.press('a');
    await s.getByRole('status').filter({ hasText: 'Leads archivés (4)' }).waitFor();
    await row(s, 'Vif7').waitFor();
    await expect.poll(() => totals(s)).toMatch(/^1 lead · aucun sélectionné$/);
    await expect.poll(() => tabCount(s, 'Archivés'), COUNTS).toBe('6');
    expect(await tabCount(s, 'Nouveaux')).toBe('1');

    expect([...admin.errors, ...staff.errors]).toEqual([]);
  });
});
