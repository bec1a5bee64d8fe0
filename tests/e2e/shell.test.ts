import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import type { Endpoint } from '../../src/api/endpoint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, distDir, MOBILE, signIn, startApp, type App } from './harness';

const root = resolve(import.meta.dirname, '../..');
let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const screens: { path: RegExp; heading: RegExp }[] = [
  { path: /\/customers$/, heading: /^Clients$/ },
  { path: /\/customers\/rules\/0$/, heading: /^Règles$/ },
  { path: /\/users$/, heading: /^Gestion des comptes$/ },
  { path: /\/exports\/0$/, heading: /^Gestion des exports$/ },
  { path: /\/taboola$/, heading: /^Taboola$/ },
  { path: /\/production\/pac$/, heading: /^Production PAC$/ },
];

async function keys(page: Page, ...presses: string[]) {
  for (const p of presses) await page.keyboard.press(p);
}

async function expectScreen(page: Page, path: RegExp, heading: RegExp) {
  await page.waitForURL(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

describe('sign-in', () => {
  it('signs in, shows the shell, and signs out with the red Déconnexion button', async () => {
    const { page, context, errors } = await app.page();
    await signIn(page, DEMO.admin);
    expect(page.url()).toBe(`${app.url}/`);
    expect(await page.locator('nav.sidebar').getByText('Administration').count()).toBe(1);
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL(/\/login$/);
    expect((await context.cookies()).find((c) => c.name === 'Admin-Token')).toBeUndefined();
    // A page opened signed out is where signing in leads.
    await page.goto('/users');
    await page.waitForURL(/\/login\?redirect=%2Fusers$/);
    expect(errors).toEqual([]);
  });

  it("says 'Identification impossible' on a bad password and stays on /login", async () => {
    const { page } = await app.page();
    await page.goto('/login');
    await page.getByLabel('Email ou identifiant').fill('  admin@demo.local  ');
    await page.getByLabel('Mot de passe').fill('wrong-password');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByText('Identification impossible').waitFor();
    expect(page.url()).toMatch(/\/login$/);
  });

  it('logs out with a message when the session has expired', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.staff);
    await app.server.ctx.db.query("UPDATE sessions SET expires_at = now() - interval '1 hour' WHERE user_id = (SELECT id FROM users WHERE email = $1)", [
      DEMO.staff.email,
    ]);
    await page.reload();
    await page.waitForURL(/\/login$/);
    await page.getByText('Session expirée, veuillez vous reconnecter').waitFor();
  });

  it('keeps the login screen initial JavaScript under 300 kB gzip', async () => {
    const { page } = await app.page({ cold: true });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Se connecter' }).waitFor();
    const gzip = scripts.reduce((sum, p) => sum + gzipSync(readFileSync(join(distDir, p))).length, 0);
    console.log(`login initial JS: ${scripts.length} files, ${(gzip / 1024).toFixed(1)} kB gzip`);
    expect(gzip).toBeLessThan(300 * 1024);
  });

  it("carries react-aria's own strings for the console's four languages and no other", () => {
    const assets = join(distDir, 'assets');
    const languages = new Set<string>();
    for (const map of readdirSync(assets).filter((file) => file.endsWith('.js.map'))) {
      const { sources } = JSON.parse(readFileSync(join(assets, map), 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const locale = /\/react-aria[^/]*\/dist\/.*\/intl\/[^/]+\/([a-z]{2})-[A-Z]{2}\.mjs$/.exec(source);
        if (locale) languages.add(locale[1]);
      }
    }
    expect([...languages].sort()).toEqual(['en', 'es', 'fr', 'zh']);
  });

  it("leaves the API's schemas and summaries to the server: the browser's endpoints are methods and paths", async () => {
    const declared = await Promise.all(
      readdirSync(join(root, 'src/api'))
        .filter((resource) => existsSync(join(root, 'src/api', resource, 'endpoints.ts')))
        .map(async (resource) => Object.values((await import(`../../src/api/${resource}/endpoints.ts`)) as Record<string, Record<string, Endpoint>>)),
    );
    const summaries = declared
      .flat()
      .flatMap((api) => Object.values(api))
      .filter((endpoint) => typeof endpoint?.path === 'string')
      .map((endpoint) => endpoint.summary);
    const assets = join(distDir, 'assets');
    const scripts = readdirSync(assets)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(assets, file), 'utf8'))
      .join('\n');
    expect(summaries.length).toBeGreaterThan(100);
    expect(summaries.filter((summary) => scripts.includes(summary))).toEqual([]);
  });
});

describe('admin, by keyboard only', () => {
  it('reaches every screen through g sequences and the palette', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const sequences: [string[], RegExp, RegExp][] = [
      [['c'], /\/customers$/, /^Clients$/],
      [['r'], /\/customers\/rules\/0$/, /^Règles$/],
      [['u'], /\/users$/, /^Gestion des comptes$/],
      [['e'], /\/exports\/0$/, /^Gestion des exports$/],
      [['t'], /\/taboola$/, /^Taboola$/],
      [['p', 'p'], /\/production\/pac$/, /^Production PAC$/],
      [['p', 'v'], /\/production\/pv$/, /^Production PV$/],
      [['p', 'o'], /\/production\/other$/, /^Production autres$/],
    ];
    for (const [letters, path, heading] of sequences) {
      await keys(page, 'g', ...letters);
      await expectScreen(page, path, heading);
    }
    // g l lists the landings in the palette; Enter opens the first one.
    await keys(page, 'g', 'l');
    await page.getByPlaceholder('Rechercher une landing…').waitFor();
    await page.keyboard.type('pac air eau');
    await page.keyboard.press('Enter');
    await expectScreen(page, /\/landings_test\/\d+$/, /.+/);
    // The palette: accents and case do not matter.
    for (const [query, path] of [
      ['regles', /\/customers\/rules\/0$/],
      ['GESTION DES COMPTES', /\/users$/],
      ['production pv', /\/production\/pv$/],
      ['taboola', /\/taboola$/],
      ['accueil', /\/$/],
    ] as const) {
      await keys(page, 'Control+k');
      await page.getByRole('dialog').getByRole('combobox').waitFor();
      await page.keyboard.type(query);
      await page.keyboard.press('Enter');
      await page.waitForURL(path);
    }
    // A customer jumps to its rules, a user to their exports, a Facebook landing to its lead view.
    await keys(page, 'Control+k');
    await page.keyboard.type('staff@demo');
    await page.getByRole('option', { name: /staff@demo\.local/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/exports\/\d+$/);
    expect(page.url()).not.toMatch(/\/exports\/0$/);
    expect(errors).toEqual([]);
  });

  it('fires on the typed character: AZERTY A (code KeyQ) completes g a, AZERTY Q (code KeyA) does not', async () => {
    const { page, context } = await app.page();
    await signIn(page, DEMO.admin);
    await keys(page, 'g', 'u');
    await page.waitForURL(/\/users$/);
    const cdp = await context.newCDPSession(page);
    const press = async (key: string, code: string, keyCode: number) => {
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', key, code, text: key, windowsVirtualKeyCode: keyCode });
      await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode });
    };
    await press('g', 'KeyG', 71);
    await press('q', 'KeyA', 81);
    await page.waitForTimeout(300);
    expect(page.url()).toMatch(/\/users$/);
    await press('g', 'KeyG', 71);
    await press('a', 'KeyQ', 65);
    await page.waitForURL(`${app.url}/`);
  });

  it('never fires a letter while typing in a field, and a dialog swallows the keys', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.admin);
    await keys(page, 'Control+k');
    await page.keyboard.type('gu');
    expect(await page.getByRole('dialog').getByRole('combobox').inputValue()).toBe('gu');
    await page.keyboard.press('Escape');
    expect(page.url()).toBe(`${app.url}/`);
    await keys(page, '?');
    await page.getByRole('dialog', { name: 'Raccourcis clavier' }).waitFor();
    await keys(page, 'g', 'u');
    await page.waitForTimeout(200);
    expect(page.url()).toBe(`${app.url}/`);
    await page.keyboard.press('Escape');
  });
});

describe('admin, by mouse only', () => {
  it('reaches every screen from the sidebar', async () => {
    const { page, errors } = await app.page();
    await signIn(page, DEMO.admin);
    const sidebar = page.locator('nav.sidebar');
    const open = async (group: string, entry: string) => {
      const list = sidebar.getByRole('list', { name: group });
      if (!(await list.isVisible())) await sidebar.getByRole('button', { name: new RegExp(`^${group}`) }).click();
      await list.getByRole('link', { name: entry, exact: true }).click();
    };
    await open('Lives', 'Clients');
    await expectScreen(page, ...(Object.values(screens[0]) as [RegExp, RegExp]));
    await open('Lives', 'Règles');
    await expectScreen(page, screens[1].path, screens[1].heading);
    await open('Administration', 'Gestion des comptes');
    await expectScreen(page, screens[2].path, screens[2].heading);
    await open('Administration', 'Gestion des exports');
    await expectScreen(page, screens[3].path, screens[3].heading);
    await open('Administration', 'Taboola');
    await expectScreen(page, screens[4].path, screens[4].heading);
    for (const [entry, category] of [
      ['PAC', 'pac'],
      ['PV', 'pv'],
      ['AUTRE', 'other'],
    ]) {
      await open('Production', entry);
      await page.waitForURL(new RegExp(`/production/${category}$`));
    }
    await open('Landings', 'PAC Air-Eau');
    await page.waitForURL(/\/landings_test\/\d+$/);
    await sidebar.getByRole('button', { name: /^Facebook/ }).click();
    const facebookLink = sidebar.getByRole('list', { name: 'Facebook' }).getByRole('link').first();
    const facebookId = (await facebookLink.getAttribute('href'))!.split('/').pop();
    await facebookLink.click();
    await page.waitForURL(new RegExp(`/landings_test/${facebookId}$`));
    // Tags: one per screen visited, a context menu, kept across a reload.
    const tags = page.getByRole('navigation', { name: 'Vues visitées' });
    expect(await tags.getByRole('link').count()).toBeGreaterThanOrEqual(9);
    await tags.getByRole('link', { name: 'Taboola' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Fermer les autres vues' }).click();
    await page.waitForURL(/\/taboola$/);
    expect(await tags.getByRole('link').allTextContents()).toEqual(['Taboola']);
    await page.reload();
    await tags.getByRole('link', { name: 'Taboola' }).waitFor();
    await tags.getByRole('link', { name: 'Taboola' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Rafraîchir la vue' }).click();
    await page.waitForURL(/\/taboola$/);
    await page.getByRole('heading', { level: 1, name: 'Taboola' }).waitFor();
    await expect.poll(() => page.title()).toBe('Taboola · Console leads');
    // The sidebar folds and stays folded across a reload (preference 0).
    await page.getByRole('button', { name: 'Afficher ou masquer le menu' }).click();
    await page.reload();
    await page.locator('nav.sidebar.collapsed').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('sidebarStatus'))).toBe('0');
    expect(errors).toEqual([]);
  });
});

describe('preferences and the error log', () => {
  it('keeps the theme colour and the size, says when fullscreen is unsupported, and logs errors with their URL', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.admin);
    await page.getByRole('button', { name: 'Couleur du thème' }).click();
    await page.getByRole('option').nth(3).click();
    await page.keyboard.press('Escape');
    const accent = () => page.evaluate(() => document.documentElement.style.getPropertyValue('--accent'));
    expect(await accent()).toBe('#7c3aed');
    await page.getByRole('button', { name: 'Taille' }).click();
    expect(await page.getByRole('menuitem', { name: 'Moyenne' }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('menuitem', { name: 'Mini' }).click();
    await page.reload();
    await page.locator('nav.sidebar').waitFor();
    expect(await accent()).toBe('#7c3aed');
    expect(await page.evaluate(() => document.documentElement.dataset.size)).toBe('mini');

    await page.evaluate(() => Object.defineProperty(document, 'fullscreenEnabled', { value: false }));
    await page.getByRole('button', { name: 'Plein écran' }).click();
    await page.getByText('Votre navigateur ne permet pas le plein écran').waitFor();

    await keys(page, 'g', 't');
    await page.waitForURL(/\/taboola$/);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('Erreur de test');
      });
      void Promise.reject(new Error('Rejet de test'));
    });
    await page.getByRole('button', { name: 'Journal des erreurs' }).click();
    const log = page.getByRole('dialog', { name: 'Journal des erreurs' });
    await log.getByText('Rejet de test', { exact: true }).waitFor();
    expect(await log.locator('strong', { hasText: 'Erreur de test' }).count()).toBe(1);
    expect(await log.getByText(`${app.url}/taboola`).count()).toBe(2);
  });
});

describe('the account not loaded', () => {
  it('says so on an admin screen after four refusals of /api/me, and shows the screen on a retry', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.admin);
    let refused = 0;
    await page.route('**/api/me', (route) => (refused++, route.fulfill({ status: 503, json: { error: 'unavailable', message: 'Base indisponible' } })));
    await page.goto('/taboola');
    const alert = page.getByRole('alert').filter({ hasText: "Votre compte n'a pas pu être chargé" });
    await alert.getByText('Base indisponible').waitFor({ timeout: 20_000 });
    expect(refused).toBe(4);
    await page.unroute('**/api/me');
    await alert.getByRole('button', { name: 'Réessayer' }).click();
    await page.getByRole('heading', { level: 1, name: 'Taboola' }).waitFor();
    await page.getByRole('navigation', { name: 'Vues visitées' }).getByRole('link', { name: 'Taboola' }).waitFor();
  });

  it('still runs the shell’s own commands: the language from the menu and the palette, and the sign-out', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.admin);
    await page.route('**/api/me', (route) => route.fulfill({ status: 503, json: { error: 'unavailable', message: 'Base indisponible' } }));
    await page.goto('/taboola');
    await page.getByRole('alert').filter({ hasText: "Votre compte n'a pas pu être chargé" }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: /Langue FR/ }).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your account could not be loaded' }).waitFor();
    await keys(page, 'Control+k');
    await page.keyboard.type('Français');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: "Votre compte n'a pas pu être chargé" }).waitFor();
    await page.getByRole('button', { name: 'Déconnexion' }).click();
    await page.waitForURL(/\/login/);
  });
});

describe('normal user', () => {
  it('sees neither Lives nor Administration, in the menu or the palette, and gets /401 on admin screens', async () => {
    const { page } = await app.page();
    await signIn(page, DEMO.staff);
    const sidebar = page.locator('nav.sidebar');
    await sidebar.getByRole('button', { name: /^Production/ }).waitFor();
    expect(await sidebar.getByText('Lives').count()).toBe(0);
    expect(await sidebar.getByText('Administration').count()).toBe(0);
    for (const query of ['clients', 'règles', 'gestion', 'taboola', 'admin@demo']) {
      await keys(page, 'Control+k');
      await page.keyboard.type(query);
      await page.getByText('Aucun résultat').waitFor();
      await page.keyboard.press('Escape');
    }
    await keys(page, 'g', 'u');
    await page.waitForTimeout(200);
    expect(page.url()).toBe(`${app.url}/`);
    // A bookmark of an admin screen asks nothing of the API (no 403), and the 401 page has the focus.
    const forbidden: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403) forbidden.push(new URL(r.url()).pathname);
    });
    for (const path of ['/customers', '/users', '/exports/0']) {
      await page.goto(path);
      await page.waitForURL(/\/401$/);
      await page.getByRole('heading', { level: 1, name: 'Accès non autorisé' }).waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement !== document.body && document.activeElement !== null)).toBe(true);
    }
    await page.waitForTimeout(300);
    expect(forbidden).toEqual([]);
  });
});

describe('accessibility, languages and widths', () => {
  it('axe finds no serious or critical violation on the login screen and the shell', async () => {
    const { page } = await app.page();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Se connecter' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await signIn(page, DEMO.admin);
    await page.getByRole('navigation', { name: 'Vues visitées' }).getByRole('link').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await keys(page, 'Control+k');
    await page.getByRole('dialog').getByRole('combobox').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await keys(page, 'Escape');
    // The help overlay lists every command, those of other screens marked as such (contrast included).
    await keys(page, '?');
    await page.getByRole('dialog', { name: 'Raccourcis clavier' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await keys(page, 'Escape');
    // The tags' context menu.
    await page.getByRole('navigation', { name: 'Vues visitées' }).getByRole('link').first().click({ button: 'right' });
    await page.getByRole('menu').waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('speaks English to an English browser, and switches to French from the menu', async () => {
    const { page } = await app.page({ locale: 'en-GB' });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(page, DEMO.admin);
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.getByRole('button', { name: 'Language EN' }).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await page.getByRole('button', { name: 'Déconnexion' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Déconnexion' }).waitFor();
  });

  it('lays out for mobile: sidebar as a drawer, no error-log icon', async () => {
    const { page } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.admin);
    await page.locator('nav.sidebar.hidden').waitFor({ state: 'attached' });
    expect(await page.getByRole('button', { name: 'Journal des erreurs' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Afficher ou masquer le menu' }).click();
    const sidebar = page.locator('nav.sidebar');
    await sidebar.getByRole('button', { name: /^Administration/ }).click();
    await sidebar.getByRole('link', { name: 'Taboola' }).click();
    await page.waitForURL(/\/taboola$/);
    await page.locator('nav.sidebar.hidden').waitFor({ state: 'attached' });
    expect(await axeViolations(page)).toEqual([]);

    // By keyboard: the opened drawer takes the focus (it covers the button that opened it), and
    // Escape closes it and gives the focus back to that button.
    const toggle = page.getByRole('button', { name: 'Afficher ou masquer le menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.locator('nav.sidebar:not(.hidden)').waitFor();
    await expect.poll(() => page.evaluate(() => document.querySelector('nav.sidebar')!.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('nav.sidebar.hidden').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Afficher ou masquer le menu');
  });
});
