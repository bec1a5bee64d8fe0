// The production map's colour and focus (issue 24 item 12), layout shifts as data arrives (item
// 20), and date fields in the console's language whatever the browser's (item 21).
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DESKTOP, MOBILE, signIn, startApp, type App } from './harness';

let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const map = (page: Page) => page.getByRole('listbox', { name: /Carte de production/ });

async function openMap(page: Page, category: string) {
  await page.goto(`/production/${category}`);
  await map(page).waitFor();
  await page.locator('.map-legend-classes li').nth(1).waitFor();
  await page.locator('.production-view[data-saves]').waitFor();
}

/** Sums the layout shifts of each page the context loads (not those right after an input), from its first paint. */
async function watchLayoutShifts(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { cls: number };
    w.cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}
const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { cls: number }).cls);

describe('layout shifts as the data arrives (item 20)', () => {
  for (const [size, viewport] of [
    ['desktop', DESKTOP],
    ['phone', MOBILE],
  ] as const) {
    it(`stay well under 0.1 on the production map and the lead view (${size})`, async () => {
      const { page, context, errors } = await app.page({ viewport });
      await signIn(page, DEMO.admin);
      await watchLayoutShifts(context);
      const shifts: Record<string, number[]> = { map: [], leads: [] };
      // The data in either order: the user's record (and so the toolbars) last, then first.
      for (const meDelay of [800, 0]) {
        await context.unrouteAll();
        await context.route('**/api/me', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, meDelay));
          await route.continue();
        });
        await openMap(page, 'pac');
        await page.getByRole('grid', { name: 'Statistiques' }).getByRole('gridcell', { name: 'Ain', exact: true }).waitFor();
        await page.waitForTimeout(500);
        shifts.map.push(await layoutShift(page));
        await page.goto('/landings_test/1');
        await page.getByRole('grid', { name: 'Leads' }).locator('[role=row] [role=gridcell]').first().waitFor();
        await page.waitForTimeout(1000);
        shifts.leads.push(await layoutShift(page));
      }
      console.log(size, JSON.stringify(shifts));
      await page.screenshot({ path: `/tmp/map-dates-cls-${size}.png` });
      for (const value of [...shifts.map, ...shifts.leads]) expect(value).toBeLessThan(0.05);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
