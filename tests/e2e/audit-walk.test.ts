// The walk of issue 15, client side, in Chromium: a stale bookmark, the toasts, a forced sign-out,
// with a request counter on the server's side of the page and axe-core on every screen touched.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, MOBILE, signIn, startApp, networkIdle, type App } from './harness';
import { createLanding } from './landing-fixture';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

/** Counts the page's requests to /api paths matching `pattern`. */
function countRequests(page: Page, pattern: RegExp) {
  const seen: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (pattern.test(path)) seen.push(path);
  });
  return seen;
}

describe('an unknown landing (a stale bookmark)', () => {
  it('asks once, shows one not-found message, no tabs, no toolbar, no toast, and stays quiet', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff);
    const requests = countRequests(page, /\/api\/landings\/(data\/)?99999/);
    await page.goto('/landings_test/99999');
    await page.getByRole('heading', { level: 1, name: 'Landing introuvable' }).waitFor();
    await page.waitForTimeout(3000);
    expect(requests).toEqual(['/api/landings/99999']);
    expect(await page.getByRole('alert').allTextContents()).toEqual([expect.stringContaining("Cette landing n'existe pas")]);
    expect(await page.getByRole('tablist').count()).toBe(0);
    expect(await page.getByRole('toolbar').count()).toBe(0);
    expect(await page.getByRole('grid').count()).toBe(0);
    expect(await page.locator('.toast').count()).toBe(0);
    await page.screenshot({ path: '/tmp/audit-walk-notfound.png' });
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('toasts', () => {
  it('show a repeated message once, below and right of the navbar, as a status or an alert, and a sign-in clears the failure', async () => {
    const { page } = await app.page();
    await page.goto('/login');
    for (let i = 0; i < 3; i++) {
      await page.getByLabel('Email ou identifiant').fill(DEMO.staff.email);
      await page.getByLabel('Mot de passe').fill('wrong');
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByRole('alert').filter({ hasText: 'Identification impossible' }).waitFor();
    }
    expect(await page.locator('.toast').count()).toBe(1);
    expect(await page.locator('[role=dialog], [role=alertdialog]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Mot de passe').fill(DEMO.staff.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForSelector('nav.sidebar');
    expect(await page.locator('.toast').count()).toBe(0);

    // A toast in the console keeps clear of the navbar and its search.
    const navbar = (await page.locator('.navbar').boundingBox())!;
    await page.goto('/landings_test/1');
    await page.getByRole('grid').waitFor();
    await page.keyboard.press('a'); // nothing selected: 'Merci de sélectionner des leads'
    await page.keyboard.press('a');
    const toast = page.locator('.toast');
    await toast.first().waitFor();
    expect(await toast.count()).toBe(1);
    const box = (await toast.boundingBox())!;
    expect(box.y).toBeGreaterThan(navbar.y + navbar.height);
    await page.screenshot({ path: '/tmp/audit-walk-toast.png' });
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('a forced sign-out', () => {
  it('keeps the visited views and signing in again returns to the page the user was on', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.staff);
    await page.goto('/landings_test/2?tab=extracted');
    await page.getByRole('grid').waitFor();
    await page.locator('nav.sidebar').getByRole('link', { name: 'PAC Air-Eau' }).click();
    await page.waitForURL(/\/landings_test\/1$/);
    await page.getByRole('grid').waitFor();
    // The home page, the two landings: the tag of the page just opened may come after its grid.
    await expect.poll(() => page.locator('nav.tags li.tag').count()).toBeGreaterThanOrEqual(3);
    const tagsBefore = await page.locator('nav.tags li.tag').allTextContents();
    // Nothing in flight: the tab click below is what meets the revoked session.
    await networkIdle(page);
    await app.server.ctx.db.query('DELETE FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = $1)', [DEMO.staff.email]);
    // A background request (a refetch) may meet the revoked session before the click does.
    await Promise.race([
      page
        .getByRole('tab', { name: 'Archivés' })
        .click()
        .catch(() => undefined),
      page.waitForURL(/\/login\?redirect=/),
    ]);
    await page.waitForURL(/\/login\?redirect=/);
    await page.getByText('Session expirée, veuillez vous reconnecter').waitFor();
    await page.getByLabel('Email ou identifiant').fill(DEMO.staff.email);
    await page.getByLabel('Mot de passe').fill(DEMO.staff.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.waitForURL(/\/landings_test\/1(\?tab=archived)?$/);
    await page.getByRole('grid').waitFor();
    expect(await page.locator('nav.tags li.tag').allTextContents()).toEqual(tagsBefore);
    expect(tagsBefore.length).toBeGreaterThanOrEqual(3);
  });
});

describe('the statistics tabs', () => {
  it("head the value column for the tab, colour the whole row, and show the server's message for an end before the start", async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.staff, '/landings_test/1?tab=production');
    const table = page.getByRole('region', { name: 'Production' }).getByRole('table');
    await table.getByRole('columnheader', { name: 'Leads produits' }).waitFor();
    for (const [tab, header] of [
      ['Convertis', 'Leads convertis'],
      ['Production extraites', 'Leads extraits'],
      ['En Stock', 'Leads disponibles'],
    ]) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      await page.getByRole('region', { name: tab }).getByRole('columnheader', { name: header }).waitFor();
    }
    await page.getByRole('tab', { name: 'Production', exact: true }).click();
    // The demo's busiest department on landing 1 has 90 to 110 leads over 90 days, depending on the
    // hour it was seeded at: either tone (success from 100, warning from 50) colours its row.
    const toned = table.locator('tbody tr.tone-success, tbody tr.tone-warning').first();
    await toned.waitFor();
    const colours = await toned.locator('th, td').evaluateAll((cells) => cells.map((c) => getComputedStyle(c).backgroundColor));
    expect(new Set(colours).size).toBe(1);
    expect(colours[0]).not.toBe('rgba(0, 0, 0, 0)');
    expect(await axeViolations(page)).toEqual([]);

    const panel = page.getByRole('tabpanel');
    // The dates are typed as the French console shows them: jj/mm/aaaa.
    await panel.getByRole('group', { name: 'Au', exact: true }).getByRole('spinbutton').first().click();
    await page.keyboard.type('01012026');
    await panel.getByRole('group', { name: 'Du', exact: true }).getByRole('spinbutton').first().click();
    await page.keyboard.type('01022026');
    await page.getByRole('alert').filter({ hasText: 'La date de fin précède la date de début' }).waitFor();
    expect(await page.getByText('Aucun lead, veuillez vérifier').count()).toBe(0);
    await page.screenshot({ path: '/tmp/audit-walk-stats.png' });
  });
});

describe('definitive deletion', () => {
  it('names how many leads it deletes, "all N matching" in that mode, and dims the page behind its question', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.staff, '/landings_test/3');
    const grid = page.getByRole('grid', { name: 'Leads' });
    await grid.locator('[role=row][aria-rowindex="3"]').waitFor();
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('Shift+Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Suppression définitive' });
    await confirm.getByText('Supprimer définitivement les 3 leads sélectionnés ? Cette action est irréversible.').waitFor();
    await confirm.getByRole('button', { name: 'Supprimer 3 leads' }).waitFor();
    const dim = await page.locator('.overlay').evaluate((o) => getComputedStyle(o).backgroundColor);
    expect(dim).toMatch(/rgba\(.*, 0\.[4-9]\d*\)/);
    await page.screenshot({ path: '/tmp/audit-walk-delete.png' });
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });

    // Every lead matching the (empty) filters: the count is the list's.
    const total = Number((await grid.getAttribute('aria-rowcount'))!) - 2;
    await page.keyboard.press('Control+a');
    await page.getByRole('button', { name: /^Sélectionner les .* résultats correspondants$/ }).click();
    await page.keyboard.press('Shift+Delete');
    const n = new Intl.NumberFormat('fr-FR').format(total);
    await confirm
      .getByText(`Supprimer définitivement les ${n} leads correspondant aux filtres, y compris ceux qui ne sont pas affichés ?`, { exact: false })
      .waitFor();
    await confirm.getByRole('button', { name: `Supprimer ${n} leads` }).waitFor();
    await page.keyboard.press('Escape');
  });
});

async function rowMetrics(page: Page) {
  const rows = page.getByRole('grid', { name: /Leads/ }).locator('[role=row][aria-rowindex="3"], [role=row][aria-rowindex="4"]');
  await rows.first().waitFor();
  const [a, b] = await rows.evaluateAll((els) =>
    els
      .map((e) => e.getBoundingClientRect())
      .sort((x, y) => x.top - y.top)
      .map((r) => ({ top: r.top, height: r.height })),
  );
  const font = await rows
    .first()
    .locator('[role=gridcell]')
    .nth(1)
    .evaluate((c) => getComputedStyle(c).fontSize);
  return { height: a.height, step: b.top - a.top, font };
}

describe('interface sizes', () => {
  it('Petite and Mini make the grid rows shorter and their text smaller, by mouse', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.staff, '/landings_test/1');
    expect(await rowMetrics(page)).toEqual({ height: 30, step: 30, font: '13px' });
    const sizes: [string, number, string][] = [
      ['Petite', 26, '12px'],
      ['Mini', 22, '11px'],
      ['Moyenne', 30, '13px'],
    ];
    for (const [name, height, font] of sizes) {
      await page.getByRole('button', { name: 'Taille' }).click();
      await page.getByRole('menuitem', { name }).click();
      await expect.poll(() => rowMetrics(page)).toEqual({ height, step: height, font });
      if (name === 'Mini') await page.screenshot({ path: '/tmp/audit-walk-mini.png' });
    }
    // The focus still follows the keys at the new size.
    await page.keyboard.press('End');
    await page.getByRole('grid', { name: /Leads/ }).locator('[role=row].is-focused').waitFor();
  });
});

describe('a live language switch', () => {
  it('renames the grid headers, the recent palette entries and the help key names', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.staff, '/landings_test/1');
    const grid = page.getByRole('grid', { name: 'Leads' });
    await grid.locator('.lg-colhead').filter({ hasText: 'Créé le' }).waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('archives');
    await page.keyboard.press('Enter');
    await page.waitForURL(/tab=archived/);
    await page.keyboard.press('Control+k');
    const recent = page.locator('.palette-item').filter({ hasText: 'Archivés' });
    await recent.first().waitFor();
    await page.keyboard.press('Escape');

    // The last column: the name react-aria gives the hidden button that closes a menu, from its own
    // strings, which the build keeps for these four languages only.
    const languages: [string, RegExp, string, string, string, string][] = [
      ['English', /Created/, 'Archived', 'Home', 'End', 'Dismiss'],
      ['Español', /Creado/, 'Archivados', 'Inicio', 'Fin', 'Descartar'],
      ['中文', /创建/, '已归档', 'Home', 'End', '取消'],
      ['Français', /Créé le/, 'Archivés', 'Début', 'Fin', 'Rejeter'],
    ];
    let dismiss = 'Rejeter';
    for (const [name, header, archived, home, end, nextDismiss] of languages) {
      await page
        .locator('.navbar')
        .getByRole('button', { name: /Langue|Language|Idioma|语言/ })
        .click();
      await page.getByRole('button', { name: dismiss, exact: true }).first().waitFor({ state: 'attached' });
      dismiss = nextDismiss;
      await page.getByRole('menuitemradio', { name }).or(page.getByRole('menuitem', { name })).click();
      await page.getByRole('grid').locator('.lg-colhead').filter({ hasText: header }).waitFor();
      await page.keyboard.press('Control+k');
      const group = page.locator('.palette-heading').last();
      await group.waitFor();
      expect(await page.locator('.palette-item').last().textContent()).toContain(archived);
      await page.keyboard.press('Escape');
      await page.getByRole('grid').focus();
      await page.keyboard.press('?');
      const help = page.getByRole('dialog');
      await help.waitFor();
      const caps = await help.locator('kbd').allTextContents();
      expect(caps).toContain(home);
      expect(caps).toContain(end);
      expect(caps).not.toContain('HOME');
      expect(caps).not.toContain('END');
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `/tmp/audit-walk-help-${name}.png` });
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
    }
  });
});

describe('the tags bar and the sidebar', () => {
  it('shows that the tags scroll, keeps the active tag in view, and lets long landing names be read', async () => {
    const db = app.server.ctx.db;
    for (const n of [1, 2]) await createLanding(db, `PV Autoconsommation Nouvelle-Aquitaine et Occitanie ${n}`);
    const { page } = await app.page({ viewport: { width: 1280, height: 800 } });
    await signIn(page, DEMO.admin);
    for (const path of [
      '/users',
      '/customers',
      '/customers/rules/0',
      '/exports/0',
      '/taboola',
      '/production/pac',
      '/production/pv',
      '/production/other',
      '/landings_test/1',
      '/landings_test/2',
      '/landings_test/3',
    ]) {
      await page.goto(path);
      await page.locator('nav.tags li.tag.active').waitFor();
    }
    const bar = page.locator('nav.tags');
    // The bar scrolls smoothly to the active tag: the fade on the left comes once it is there.
    await expect.poll(() => bar.getAttribute('class')).toContain('more-left');
    const right = page.getByRole('button', { name: 'Onglets précédents' });
    expect(await right.isVisible()).toBe(true);
    // Both boxes read on each try: the bar's scroll buttons appear as it scrolls, narrowing the list.
    const activeEnd = async () => {
      const ul = (await bar.locator('ul').boundingBox())!;
      const box = (await page.locator('nav.tags li.tag.active').boundingBox())!;
      return box.x + box.width <= ul.x + ul.width + 1;
    };
    await expect.poll(activeEnd).toBe(true);
    await right.click();
    await expect.poll(async () => bar.getAttribute('class')).toContain('more-right');
    await page.screenshot({ path: '/tmp/audit-walk-tags.png' });

    const link = page.locator('nav.sidebar').getByRole('link', { name: /PV Autoconsommation Nouvelle-Aquitaine et Occitanie 1/ });
    expect(await link.getAttribute('title')).toBe('PV Autoconsommation Nouvelle-Aquitaine et Occitanie 1');
    // The demo's longest names are shown whole, on two lines at most.
    const links = page.locator('nav.sidebar .menu-entries .menu-link');
    const shown = await links.evaluateAll((els) =>
      els.map((a) => ({
        name: a.getAttribute('title'),
        whole: a.querySelector('.menu-link-text')!.scrollHeight <= a.querySelector('.menu-link-text')!.clientHeight + 1,
      })),
    );
    expect(shown.filter((l) => !l.whole).map((l) => l.name)).toEqual([
      'PV Autoconsommation Nouvelle-Aquitaine et Occitanie 1',
      'PV Autoconsommation Nouvelle-Aquitaine et Occitanie 2',
    ]);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('the palette', () => {
  it('lets the arrows reach every entry with an empty query, with no "more results" cap', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.admin, '/landings_test/1');
    // After a navigation the keyboard belongs to the grid, then mod+k opens the palette from there.
    // It gets it once its rows have come: beside CI's other lane, later than expect.poll's 1 s.
    const focused = () => page.evaluate(() => (document.activeElement?.closest('[role=grid]') ? 'grid' : document.activeElement?.outerHTML.slice(0, 120)));
    await expect.poll(focused, { timeout: 10_000 }).toBe('grid');
    await page.keyboard.press('Control+k');
    // One evaluate per key: a locator's auto-waiting made this walk of 100+ entries pass 30 s.
    const active = async () =>
      (await page.waitForFunction(() => document.querySelector('[cmdk-item][data-selected=true]')?.getAttribute('data-value'))).jsonValue();
    await page.locator('[cmdk-item]').first().waitFor();
    const first = await active();
    const seen = [first];
    for (;;) {
      await page.keyboard.press('ArrowDown');
      const now = await active();
      if (now === first) break;
      expect(seen).not.toContain(now);
      seen.push(now);
    }
    // Actions, screens, landings, Facebook landings, customers, rules and accounts of the demo.
    expect(seen.length).toBeGreaterThan(60);
    await page.keyboard.press('End');
    expect(await active()).toBe(seen.at(-1));
    expect(await page.getByText(/autres résultats/).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe('doublons', () => {
  it('link each duplicate to the lead it repeats, by mouse and by the o key', async () => {
    const db = app.server.ctx.db;
    const { id: landing } = await createLanding(db, 'E2E Doublons');
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO leads (landing_id, created_at, entry_status, source, data, phone, email, departement)
       VALUES ($1, now() - interval '2 days', 'new', 'google', '{"nom":"Original"}', '0611111111', 'o@x.fr', '30'),
              ($1, now() - interval '1 day', 'duplicate', 'google', '{"nom":"Copie"}', '0611111111', 'c@x.fr', '30')
       RETURNING id`,
      [landing],
    );
    const original = Number(rows[0].id);
    const { page, errors } = await app.page();
    await signIn(page, DEMO.staff, `/landings_test/${landing}?tab=doublons`);
    const grid = page.getByRole('grid', { name: 'Leads' });
    const link = grid.getByRole('link', { name: `Lead n° ${original} (Nouveau)` });
    await link.waitFor();
    await grid.locator('.lg-colhead').filter({ hasText: 'Doublon de' }).waitFor();
    expect(await link.getAttribute('href')).toBe(`/landings_test/${landing}?id=${original}`);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/audit-walk-doublons.png' });
    await link.click();
    await page.waitForURL(new RegExp(`/landings_test/${landing}\\?id=${original}$`));
    await grid.getByRole('gridcell', { name: 'Original', exact: true }).waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe('3');

    // By keyboard: the focused duplicate, then o.
    await page.goto(`/landings_test/${landing}?tab=doublons`);
    await link.waitFor();
    await page.keyboard.press('o');
    await page.waitForURL(new RegExp(`\\?id=${original}$`));
    await grid.getByRole('gridcell', { name: 'Original', exact: true }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('every screen, and the lead view on a phone', () => {
  it('axe finds no serious or critical violation on any screen, its not-found and its statistics', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.admin);
    for (const path of [
      '/',
      '/customers',
      '/customers/rules/0',
      '/users',
      '/exports/0',
      '/taboola',
      '/production/pac',
      '/landings_test/1',
      '/landings_test/1?tab=production',
      '/landings_test/1?tab=import',
      '/landings_test/1,2',
      '/landings_test/424242',
      '/404',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await networkIdle(page);
      expect({ path, violations: await axeViolations(page) }).toEqual({ path, violations: [] });
    }
  });

  it('works at 390×844 by touch alone: drawer, rows, the deletion question, toasts clear of the navbar', async () => {
    const { page, errors } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.staff);
    await page.getByRole('button', { name: 'Afficher ou masquer le menu' }).click();
    await page.locator('nav.sidebar').getByRole('link', { name: 'PAC Air-Air' }).click();
    const grid = page.getByRole('grid', { name: 'Leads' });
    await grid.locator('[role=row][aria-rowindex="4"]').waitFor();
    await page.screenshot({ path: '/tmp/audit-walk-mobile.png' });
    expect(await axeViolations(page)).toEqual([]);
    await grid.locator('[role=row][aria-rowindex="3"] [data-check]').click();
    await grid.locator('[role=row][aria-rowindex="4"] [data-check]').click();
    await page.getByRole('button', { name: /Suppression définitive/ }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Supprimer définitivement les 2 leads sélectionnés ?', { exact: false }).waitFor();
    await page.screenshot({ path: '/tmp/audit-walk-mobile-delete.png' });
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Annuler' }).click();
    await confirm.waitFor({ state: 'detached' });
    // Archived: the undo bar says so (no toast repeats it); archiving nothing then toasts above it.
    await page.getByRole('button', { name: /^Archiver/ }).click();
    const undo = page.locator('.leads-undo');
    await undo.getByText('Leads archivés (2)').waitFor();
    expect(await page.locator('.toast').count()).toBe(0);
    await page.getByRole('button', { name: /^Archiver/ }).click();
    const toast = page.locator('.toast');
    await toast.first().getByText('Merci de sélectionner des leads').waitFor();
    const box = (await toast.first().boundingBox())!;
    const navbar = (await page.locator('.navbar').boundingBox())!;
    const bar = (await undo.boundingBox())!;
    expect(box.y).toBeGreaterThan(navbar.y + navbar.height);
    expect(box.y + box.height).toBeLessThanOrEqual(bar.y);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(MOBILE.width);
    await page.screenshot({ path: '/tmp/audit-walk-mobile-toast.png' });
    expect(errors).toEqual([]);
  });
});
