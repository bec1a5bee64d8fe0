import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, networkIdle, signIn, startApp, type App } from './harness';

// What a signed-in page asks at its start (issue 30, Lighthouse on the lead view): the shell's
// data while its code is still coming, and nothing read twice.
let app: App;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const SHELL_READS = ['/api/me', '/api/landings', '/api/landings_facebook', '/api/views'];

describe('a signed-in page at its start', () => {
  it("asks the shell's data before the shell's code has come, and each read once though the lead view reconnects the live events", async () => {
    const { page, errors } = await app.page({ viewport: { width: 412, height: 823 } });
    await signIn(page, DEMO.admin);

    let release!: () => void;
    const held = new Promise<void>((ok) => (release = ok));
    await page.route(/\/assets\/shell-[\w-]{8}\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const asked: string[] = [];
    const streams: Array<{ place: string | null; resumes: boolean }> = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      asked.push(url.pathname);
      if (url.pathname === '/api/events') streams.push({ place: url.searchParams.get('place'), resumes: 'last-event-id' in r.headers() });
    });
    await page.goto('/landings_test/1');
    // Routing turns the browser's cache off: every chunk comes from the server, the shell last.
    await expect.poll(() => SHELL_READS.filter((path) => asked.includes(path)), { timeout: 15_000 }).toEqual(SHELL_READS);
    release();

    await page.locator('[role="row"][aria-rowindex="2"]').first().waitFor();
    await networkIdle(page);
    // The lead view says where the user is (presence). Named before the stream opens, the place
    // goes with its first connection; named after, the stream reconnects, resuming from the id it
    // opened with. Either way no query is read again.
    expect(streams.length === 1 ? streams : streams.slice(1)).toEqual([{ place: 'landing:1/new', resumes: streams.length === 2 }]);
    for (const path of SHELL_READS) expect([path, asked.filter((p) => p === path).length]).toEqual([path, 1]);
    // The leads: their count and their first page.
    expect(asked.filter((p) => p === '/api/landings/data/1').length).toBe(2);
    expect(errors).toEqual([]);
  });

  it('shows the screen on a slow phone (4× CPU) every time: the first render does not miss the routes that came meanwhile', async () => {
    const { page, context, errors } = await app.page({ viewport: { width: 412, height: 823 } });
    await signIn(page, DEMO.admin);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    for (let load = 0; load < 4; load++) {
      await page.goto('about:blank');
      await page.goto('/landings_test/1');
      await page.locator('[role="row"][aria-rowindex="3"]').first().waitFor({ timeout: 25_000 });
    }
    expect(errors).toEqual([]);
  });
});
