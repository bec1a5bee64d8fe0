// Second factor in Chromium (issue 29): enrolment of an authenticator app from the account menu
// (codes computed here with otpauth) and the sign-in with its code, keyboard first; a passkey
// registered and used through Chromium's virtual authenticator (DevTools WebAuthn domain); axe on
// the enrolment dialog.
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/services/users';
import { axeViolations, startApp, type App } from './harness';

let app: App;
/** The console as the browser reaches it: WebAuthn takes a host name (localhost), never an IP address. */
let origin: string;
beforeAll(async () => {
  app = await startApp();
  origin = app.url.replace('127.0.0.1', 'localhost');
  // The port is known once listening: the relying party (PUBLIC_URL) follows the address the page uses.
  app.server.ctx.config.PUBLIC_URL = origin;
});
afterAll(() => app?.close());

const PASSWORD = 'password-12345';
let seq = 0;
async function newAccount() {
  seq += 1;
  const who = { name: `Double ${seq}`, email: `double${seq}@demo.local`, password: PASSWORD };
  await createUser(app.server.ctx.db, who);
  return who;
}

const codeAt = (secret: string, offsetSteps = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
const toast = (page: Page, text: string | RegExp) => page.locator('.toasts').getByText(text).first().waitFor();
const focusedName = (page: Page) => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name ?? document.activeElement?.tagName);

async function passwordStep(page: Page, who: { email: string; password: string }) {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email ou identifiant').fill(who.email);
  await page.getByLabel('Mot de passe').fill(who.password);
  await page.keyboard.press('Enter');
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Déconnexion' }).click();
  await page.waitForURL(/\/login/);
}

describe('authenticator app', () => {
  it('enrols from the account menu with a code, shows the recovery codes once, then signs in with a code', async () => {
    const who = await newAccount();
    const { page, errors } = await app.page();
    await passwordStep(page, who);
    await page.waitForSelector('nav.sidebar');

    await page.getByRole('button', { name: 'Double authentification' }).click();
    const dialog = page.getByRole('dialog', { name: 'Double authentification' });
    await dialog.getByRole('button', { name: "Activer l'application d'authentification" }).click();
    await dialog
      .getByRole('img', { name: /QR code/ })
      .locator('svg')
      .waitFor();
    const secret = (await dialog.locator('.totp-secret').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The code field has the focus: type and Enter.
    expect(await focusedName(page)).toBe('code');
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.type('000000');
    await page.keyboard.press('Enter');
    await dialog.getByText('Code incorrect ou expiré').first().waitFor();
    await page.getByLabel('Code à 6 chiffres').fill(codeAt(secret));
    await page.keyboard.press('Enter');

    const codes = dialog.getByRole('list', { name: 'Codes de secours' }).getByRole('listitem');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/mfa-recovery.png' });
    // 'J'ai noté ces codes' has the focus: Enter, and they are gone for good.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("J'ai noté ces codes");
    await page.keyboard.press('Enter');
    await dialog.getByText(/Active\. 10 codes de secours restants/).waitFor();
    // Their button gone, the focus is on the status line, still in the dialog: Escape closes it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Active\./);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await signOut(page);

    // Password, then the code step, its field focused.
    await passwordStep(page, who);
    await page.getByLabel('Code de vérification').waitFor();
    expect(await focusedName(page)).toBe('code');
    await page.screenshot({ path: '/tmp/mfa-code-step.png' });
    await page.keyboard.type('123456');
    await page.keyboard.press('Enter');
    await page.getByText('Code incorrect, expiré ou déjà utilisé').waitFor();
    await page.getByLabel('Code de vérification').fill(codeAt(secret, 1));
    await page.keyboard.press('Enter');
    await page.waitForSelector('nav.sidebar');
    expect(errors).toEqual([]);
  });
});

describe('passkey', () => {
  it("registers a key of Chromium's virtual authenticator, then signs in with it alone", async () => {
    const who = await newAccount();
    const { page, context, errors } = await app.page();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await passwordStep(page, who);
    await page.waitForSelector('nav.sidebar');
    await page.getByRole('button', { name: 'Double authentification' }).click();
    const dialog = page.getByRole('dialog', { name: 'Double authentification' });
    await dialog.getByLabel('Nom de la clé').fill('Chromium');
    await page.keyboard.press('Enter');
    await toast(page, "Clé d'accès enregistrée");
    await dialog.getByText('Chromium', { exact: true }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);

    await dialog.getByRole('button', { name: 'Renommer Chromium' }).click();
    await dialog.getByLabel('Nom de la clé').first().fill('Poste du bureau');
    await page.keyboard.press('Enter');
    await dialog.getByText('Poste du bureau', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await signOut(page);

    // The password alone now asks for the second factor, and offers the key.
    await passwordStep(page, who);
    await page.getByRole('button', { name: "Utiliser une clé d'accès" }).waitFor();
    await page.getByRole('button', { name: 'Retour' }).click();

    await page.getByRole('button', { name: "Utiliser une clé d'accès" }).click();
    await page.waitForSelector('nav.sidebar');
    const used = await app.server.ctx.db.query<{ last_used_at: string | null }>(
      'SELECT p.last_used_at FROM passkeys p JOIN users u ON u.id = p.user_id WHERE u.email = $1',
      [who.email],
    );
    expect(used.rows[0]?.last_used_at).not.toBeNull();
    expect(errors).toEqual([]);
  });
});

describe('REQUIRE_2FA', () => {
  it('takes an account without a factor to its enrolment, and to the console once it has one', async () => {
    const who = await newAccount();
    const { page, errors } = await app.page();
    app.server.ctx.config.REQUIRE_2FA = 'all';
    try {
      await passwordStep(page, who);
      await page.getByRole('heading', { name: 'Activez la double authentification' }).waitFor();
      // No screen behind it: the server refuses them anything else, so the console does not ask.
      expect(await page.getByText('Ouvrir la palette de commandes').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: "Activer l'application d'authentification" }).click();
      const secret = (await page.locator('.totp-secret').innerText()).replace(/\s/g, '');
      await page.keyboard.type(codeAt(secret));
      await page.keyboard.press('Enter');
      await page.getByRole('list', { name: 'Codes de secours' }).waitFor();
      await page.keyboard.press('Enter');
      await page.getByText('Ouvrir la palette de commandes').waitFor();
      expect(errors).toEqual([]);
    } finally {
      app.server.ctx.config.REQUIRE_2FA = 'none';
    }
  });
});
