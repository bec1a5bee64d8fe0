// The shell's keyboard in Chromium with French AZERTY key events: where the focus goes after a
// button that disables itself or a tab clicked with the mouse (the grid keys must still work),
// what a normal user's bookmark of an admin screen leaves behind, and the shell's names and
// target sizes (axe-core's link-name and target-size, beyond its default rules).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, signIn, startApp, networkIdle, type App } from './harness';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const db = () => app.server.ctx.db;

/**
 * Keys as a French AZERTY keyboard sends them: the character typed in `key`, the physical key in
 * `code` (AZERTY's A is QWERTY's Q), as Chromium receives them from the system.
 */
const azerty: Record<string, { code: string; keyCode: number }> = {
  j: { code: 'KeyJ', keyCode: 74 },
  k: { code: 'KeyK', keyCode: 75 },
  x: { code: 'KeyX', keyCode: 88 },
  a: { code: 'KeyQ', keyCode: 65 },
  n: { code: 'KeyN', keyCode: 78 },
  g: { code: 'KeyG', keyCode: 71 },
  '?': { code: 'KeyM', keyCode: 188 },
};

async function typeAzerty(cdp: CDPSession, ...keys: string[]) {
  for (const key of keys) {
    const { code, keyCode } = azerty[key];
    const modifiers = key === '?' ? 8 : 0;
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, code, text: key, windowsVirtualKeyCode: keyCode, modifiers });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode, modifiers });
  }
}

/** What has the focus: its role, its name, whether it is <body>. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      body: !el || el === document.body,
      role: el?.getAttribute('role') ?? el?.tagName.toLowerCase(),
      name: el?.getAttribute('aria-label') ?? el?.textContent?.trim().slice(0, 40),
    };
  });

/** The grid's focused row (its cursor), by index. */
const cursorOf = (page: Page) =>
  page.evaluate(() => {
    const grid = document.querySelector('[role=grid][aria-activedescendant]');
    return grid ? document.getElementById(grid.getAttribute('aria-activedescendant')!)?.getAttribute('data-index') : null;
  });

const toast = (page: Page, text: string | RegExp) => page.locator('.toasts').getByText(text).first().waitFor();

describe('focus after a button that disables itself (mouse only, then AZERTY keys)', () => {
  it("'Attribuer le rôle admin' then 'normal': the focus goes back to the accounts' rows, where j moves", async () => {
    const { page, context, errors } = await app.page();
    const cdp = await context.newCDPSession(page);
    await signIn(page, DEMO.admin, '/users');
    const grid = page.getByRole('grid', { name: 'Comptes' });
    await grid.getByRole('gridcell', { name: 'staff@demo.local' }).click();
    await page.getByRole('button', { name: /Attribuer le rôle admin/ }).click();
    await toast(page, 'Rôle modifié');
    await expect.poll(() => page.getByRole('button', { name: /Attribuer le rôle admin/ }).isDisabled()).toBe(true);
    await expect.poll(() => focused(page)).toMatchObject({ body: false, role: 'grid' });
    const before = await cursorOf(page);
    await typeAzerty(cdp, 'k');
    await expect.poll(() => cursorOf(page)).not.toBe(before);
    await typeAzerty(cdp, 'j');
    await expect.poll(() => cursorOf(page)).toBe(before);

    await page.getByRole('button', { name: /Attribuer le rôle normal/ }).click();
    await expect.poll(() => page.getByRole('button', { name: /Attribuer le rôle normal/ }).isDisabled()).toBe(true);
    await expect.poll(() => focused(page)).toMatchObject({ body: false, role: 'grid' });
    const { rows } = await db().query<{ admin: boolean }>(`SELECT admin FROM users WHERE email = 'staff@demo.local'`);
    expect(rows[0].admin).toBe(false);
    expect(errors).toEqual([]);
  });

  it("'Ré-insérer les leads', confirmed with the mouse: the focus goes back to the exports' rows, where j moves", async () => {
    const { page, context, errors } = await app.page();
    const cdp = await context.newCDPSession(page);
    await signIn(page, DEMO.admin, '/exports/0');
    const { rows } = await db().query<{ id: number }>(
      `SELECT e.id FROM exports e WHERE NOT e.big_export AND EXISTS (SELECT 1 FROM leads l WHERE l.export_id = e.id AND l.entry_status = 'extracted')
        ORDER BY e.created_at DESC, e.id DESC LIMIT 1`,
    );
    const grid = page.getByRole('grid', { name: 'Exports' });
    await grid
      .getByRole('gridcell', { name: String(rows[0].id), exact: true })
      .first()
      .click();
    await page.getByRole('button', { name: /Ré-insérer les leads/ }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Ré-insérer les leads' }).click();
    await toast(page, /Leads insérés/);
    await expect.poll(() => page.getByRole('button', { name: /Ré-insérer les leads/ }).isDisabled()).toBe(true);
    await expect.poll(() => focused(page)).toMatchObject({ body: false, role: 'grid' });
    const before = await cursorOf(page);
    await typeAzerty(cdp, 'j');
    await expect.poll(() => cursorOf(page)).not.toBe(before);
    expect(errors).toEqual([]);
  });

  it("'Générer' of the custom export: the focus goes to the next control while it runs", async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin, '/exports/0');
    await page.getByRole('grid', { name: 'Exports' }).locator('[role=row][data-index]').first().waitFor();
    await page.getByRole('button', { name: 'Générer un export personnalisé' }).click();
    await page.locator('[data-field=big-landings] button').click();
    await page.getByRole('listbox').getByRole('option').first().click();
    await page.keyboard.press('Escape');
    const generate = page.locator('[data-command="exports.generate"]');
    await generate.click();
    await expect.poll(() => generate.isDisabled()).toBe(true);
    const at = await focused(page);
    expect(at.body).toBe(false);
    // A control the user can act on, not the main region.
    expect(
      await page.evaluate(() => (document.activeElement as HTMLElement).matches('button:enabled, a[href], input:enabled, select:enabled, [role=grid]')),
    ).toBe(true);
    await toast(page, /Export disponible/);
    expect(errors).toEqual([]);
  });
});

describe('a tab clicked with the mouse', () => {
  it('gives the grid keys to the list: j moves, x selects, as after the tab keys', async () => {
    const { page, context, errors } = await app.page();
    const cdp = await context.newCDPSession(page);
    await signIn(page, DEMO.admin);
    const { rows } = await db().query<{ landing_id: number }>(
      `SELECT landing_id FROM leads WHERE entry_status = 'extracted' GROUP BY landing_id HAVING count(*) > 2 ORDER BY count(*) DESC LIMIT 1`,
    );
    await page.goto(`/landings_test/${rows[0].landing_id}`);
    await page.getByRole('grid').locator('[role=row][data-index]').first().waitFor();
    await page.getByRole('tab', { name: 'Extraits' }).click();
    await page.waitForURL(/tab=extracted/);
    const grid = page.getByRole('tabpanel', { name: 'Extraits' }).getByRole('grid');
    await grid.locator('[role=row][data-index]').first().waitFor();
    await typeAzerty(cdp, 'j', 'x');
    await expect.poll(() => grid.locator('[role=row][aria-selected=true]').count()).toBe(1);
    expect(await grid.locator('[role=row][aria-selected=true]').getAttribute('data-index')).toBe('1');
    expect(errors).toEqual([]);
  });
});

describe("a normal user's bookmark of an admin screen", () => {
  it('opens no tag and calls no admin API, on that page or the next ones; the palette offers no admin view', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    // A tag kept in this browser from an admin's session, as a bookmark's visit left it before.
    await page.evaluate(() => localStorage.setItem('visitedViews', JSON.stringify([{ path: '/' }, { path: '/customers/rules/rapports/5' }])));
    const refused: string[] = [];
    const adminCalls: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403) refused.push(r.url());
    });
    page.on('request', (r) => {
      if (/\/api\/(customers|reports|users|exports|taboola)/.test(new URL(r.url()).pathname)) adminCalls.push(r.url());
    });
    await page.goto('/customers/rules/rapports/3');
    await page.waitForURL(/\/401$/);
    await page.getByRole('heading', { name: 'Accès non autorisé' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('visitedViews'))).not.toContain('/customers/rules/rapports/3');
    await page.goto('/');
    await page.locator('nav.sidebar').waitFor();
    await networkIdle(page);
    const tags = page.getByRole('navigation', { name: 'Vues visitées' });
    expect(await tags.getByRole('link').allTextContents()).not.toContain('Rapports');
    expect(await tags.locator('a[href*="/customers"]').count()).toBe(0);
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox').waitFor();
    await page.keyboard.type('Vue');
    await page.getByRole('option').first().waitFor();
    expect((await page.getByRole('option').allTextContents()).filter((o) => /Rapports|Règles|Clients/.test(o))).toEqual([]);
    expect(refused).toEqual([]);
    expect(adminCalls).toEqual([]);
    expect(errors).toEqual([]);
  });
});

/** axe-core with rules beyond its default set, as Lighthouse runs them: every violation, whatever its impact. */
async function axeRules(page: Page, rules: string[]) {
  await page.evaluate(readFileSync(join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate(async (ids) => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }
    ).axe;
    return axe.run(document, { runOnly: { type: 'rule', values: ids }, resultTypes: ['violations'] });
  }, rules);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('the shell under axe-core link-name and target-size (WCAG 2.2 2.5.8)', () => {
  it('names the brand link, sidebar open or collapsed, and gives the tags targets of 24 × 24 px, on the lead view, the rules and the map', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const { rows } = await db().query<{ id: number }>('SELECT id FROM landings ORDER BY id LIMIT 1');
    for (const path of [`/landings_test/${rows[0].id}`, '/customers/rules/0', '/production/pac']) {
      await page.goto(path);
      await page.locator('main h1, main [role=grid]').first().waitFor();
      await page.locator('.tag.active').waitFor();
      expect(await axeRules(page, ['link-name', 'target-size'])).toEqual([]);
    }
    await page.locator('header.header').screenshot({ path: '/tmp/commands-tags.png' });
    const box = await page.locator('.tag-close').first().boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(24);
    expect(box!.height).toBeGreaterThanOrEqual(24);
    // Collapsed, the brand shows its mark only: its name stays.
    await page.keyboard.press('Control+b');
    await page.locator('.app.sidebar-closed').waitFor();
    expect(await axeRules(page, ['link-name', 'target-size'])).toEqual([]);
    expect(await page.getByRole('link', { name: 'Console leads' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });
});
