// Single sign-on through a real OpenID provider's own login page, the audit log by keyboard with a
// filter and its CSV export, and 'Mes sessions' ending the other sessions; axe-core on each.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, startOidcProvider } from '../support/oidc-provider';
import { axeViolations, DEMO, focusKept, MOBILE, signIn, startApp, type App } from './harness';

let app: App;
let idp: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  idp = await startOidcProvider({
    'demo-admin': { email: DEMO.admin.email, email_verified: true },
    stranger: { email: 'stranger@example.test', email_verified: true },
  });
  app = await startApp({ OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: CLIENT.id, OIDC_CLIENT_SECRET: CLIENT.secret, OIDC_LABEL: 'Annuaire Démo' });
  idp.configure(app.url);
}, 180_000);
afterAll(async () => {
  await app?.close();
  await idp?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `/tmp/audit-sessions-${name}.png` });

/** The provider's development pages: any login, any password, then its consent. */
async function atProvider(page: Page, login: string) {
  await page.waitForURL((url) => url.origin === idp.issuer);
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  await page.locator('button[type=submit]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('audit log and sessions', () => {
  it('signs in through the provider, finds the sign-in in the audit log by keyboard, and ends the other sessions', async () => {
    // Elsewhere, a session by password: the one 'Se déconnecter partout' will end.
    const other = await app.page();
    await signIn(other.page, DEMO.admin);

    // An unknown identity: back on the sign-in page with a French message, and no session.
    const stranger = await app.page();
    await stranger.page.goto('/login');
    await stranger.page.getByRole('link', { name: 'Se connecter avec Annuaire Démo' }).click();
    await atProvider(stranger.page, 'stranger');
    await stranger.page
      .getByRole('alert')
      .getByText(/Aucun compte de la console ne correspond/)
      .waitFor();
    expect(new URL(stranger.page.url()).pathname).toBe('/login');
    expect(await axeViolations(stranger.page)).toEqual([]);
    await shot(stranger.page, 'login-unknown');
    await stranger.page.close();

    // The account's own identity, the link followed by keyboard.
    const { page, errors } = await app.page();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Se connecter avec Annuaire Démo' }).focus();
    await page.keyboard.press('Enter');
    await atProvider(page, 'demo-admin');
    await page.waitForSelector('nav.sidebar');
    expect(new URL(page.url()).search).not.toContain('sso=');

    // The audit log: g j, then the action filter reached by f and Tab, chosen by keys.
    await page.keyboard.press('g');
    await page.keyboard.press('j');
    await page.waitForURL(/\/audit$/);
    const grid = page.getByRole('grid', { name: "Journal d'audit" });
    await grid.locator('[role=row][data-index]').first().waitFor();
    await page.keyboard.press('f');
    await page.locator('[data-audit-filters] [data-field=actor] button:focus').waitFor();
    await page.keyboard.press('Tab');
    await page.locator('[data-audit-filters] [data-field=action] button:focus').waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('option', { name: 'auth.sign_in', exact: true }).waitFor();
    await page.keyboard.type('auth.sign_in');
    await page.getByRole('option', { name: 'auth.sign_in', exact: true }).click();
    await expect.poll(() => grid.locator('[role=row][data-index]').count()).toBeGreaterThanOrEqual(2);
    const actions = await grid.locator('[role=row][data-index] [role=gridcell]:nth-child(3)').allTextContents();
    expect(new Set(actions)).toEqual(new Set(['auth.sign_in']));
    const details = await grid.locator('[role=row][data-index]').first().textContent();
    expect(details).toContain('"method":"sso"');
    expect(details).toContain('127.0.0.1');
    await expect.poll(() => focusKept(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'audit');

    // e: the CSV of what the filter keeps.
    await grid.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('e')]);
    expect(download.suggestedFilename()).toMatch(/^journal-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const { rows } = await app.server.ctx.db.query("SELECT 1 FROM audit_log WHERE action = 'download' AND entity = 'audit_log'");
    expect(rows).toHaveLength(1);

    // Mes sessions, from the account's buttons in the navbar.
    await page.getByRole('button', { name: 'Mes sessions' }).click();
    await page.waitForURL(/\/account\/sessions$/);
    const sessions = page.getByRole('grid', { name: 'Sessions ouvertes' });
    await expect.poll(() => sessions.locator('[role=row][data-index]').count()).toBe(2);
    expect(await sessions.textContent()).toContain('Connexion unique');
    expect(await sessions.textContent()).toContain('Mot de passe');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'sessions');

    await page.getByRole('button', { name: 'Se déconnecter partout' }).first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Se déconnecter partout' }).click();
    await page.locator('.toasts').getByText('1 autre session fermée').waitFor();
    await expect.poll(() => sessions.locator('[role=row][data-index]').count()).toBe(1);
    await expect.poll(() => focusKept(page)).toBe(true);

    // The other browser's session is over: its next request takes it to the sign-in page.
    await other.page.reload();
    await other.page.waitForURL(/\/login/);
    expect(errors).toEqual([]);
  }, 180_000);

  it('keeps the navbar within a phone, where the palette opens Mes sessions', async () => {
    const { page } = await app.page({ viewport: MOBILE });
    await signIn(page, DEMO.staff);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    await page.getByRole('button', { name: /^Rechercher/ }).click();
    await page.keyboard.type('Mes sessions');
    await page
      .getByRole('option', { name: /Mes sessions/ })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/account\/sessions$/);
    await page.getByRole('grid', { name: 'Sessions ouvertes' }).locator('[role=row][data-index]').first().waitFor();
    await shot(page, 'sessions-phone');
  });
});
