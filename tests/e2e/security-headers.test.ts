import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, DEMO, signInThroughForm, startApp, networkIdle, type App } from './harness';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

/** Records every Content-Security-Policy violation of the page, from the first byte of each document. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('__cspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation: (v: string) => void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}

describe('Content-Security-Policy', () => {
  it('the built app loads, signs in and shows its screens with no violation', async () => {
    const { page, errors } = await app.page();
    const violations = await watchCsp(page);
    const login = await page.goto('/login');
    expect(login?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(login?.headers()['x-frame-options']).toBe('DENY');
    await signInThroughForm(page, DEMO.admin);
    for (const path of [
      '/landings_test/1',
      '/landings_test/1?tab=production',
      '/landings_test/1?tab=import',
      '/production/pac',
      '/users',
      '/exports/0',
      '/customers',
    ]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await networkIdle(page);
    }
    // The import reads files in a module worker: the worker must be allowed too.
    await page.goto('/landings_test/1?tab=import');
    await page.getByRole('combobox', { name: 'Source (utm_medium)' }).fill('csp');
    await page.keyboard.press('Escape');
    await page
      .getByLabel('Fichier CSV ou XLSX')
      .setInputFiles({ name: 'a.csv', mimeType: 'text/csv', buffer: Buffer.from('nom;telephone;code_postal\r\nA;0612345678;30000\r\n') });
    await page.getByText('Correspondance des colonnes').waitFor();
    await page.goto('/production/pac');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await networkIdle(page);
    await page.screenshot({ path: '/tmp/i15-server-csp-production.png' });
    // axe-core is injected by the test tools, which the policy must not stop either.
    expect(await axeViolations(page)).toEqual([]);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('refuses to be framed by another page', async () => {
    const { page } = await app.page();
    const violations = await watchCsp(page);
    await page.setContent(`<iframe src="${app.url}/login"></iframe>`);
    await page.waitForTimeout(1000);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    // A refused frame stays empty (Chromium shows its error page with no login form).
    expect(await frame?.locator('input').count()).toBe(0);
    expect(violations.join('\n')).toMatch(/frame-ancestors/);
  });
});
