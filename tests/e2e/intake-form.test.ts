import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from '../api/harness';
import { createLanding } from '../api/leads-support';
import { launchChromium } from '../support/chromium';

// A landing page's plain HTML form, no script, on another origin, posting to the intake in
// Chromium (issue 24, item 7): the browser lands on the thank-you page, with ?error= on refusal.
// Only the API is needed: no build of the app.

let server: TestServer;
let site: Server;
let origin: string;
let browser: Browser;
let landing: { id: number; key: string };

const formPage = (action: string, enctype: string, phone: string) => `<!doctype html><meta charset="utf-8"><title>LP</title>
<form method="post" action="${action}" enctype="${enctype}">
  <input name="nom" value="Élodie Dupont"><input name="telephone" value="${phone}"><input name="code_postal" value="30900">
  <input type="hidden" name="source" value="taboola"><button>Envoyer</button>
</form>`;

beforeAll(async () => {
  server = await startServer();
  landing = await createLanding(server.ctx.db);
  site = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://lp');
    if (url.pathname === '/merci') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Merci</h1>');
    const enctype = url.searchParams.get('enctype') ?? 'application/x-www-form-urlencoded';
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(formPage(`${server.url}/api/intake/${landing.key}`, enctype, url.searchParams.get('phone') ?? ''));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  const token = await server.login(ADMIN.email, ADMIN.password);
  await server.request('PATCH', `/api/landings/${landing.id}`, { token, body: { thank_you_url: `${origin}/merci` } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  site?.close();
  await server?.close();
});

describe('a plain HTML form posting to the intake', () => {
  it('lands on the thank-you page, url-encoded or multipart, and on refusal with the French message', async () => {
    const page = await browser.newPage();
    const submit = async (query: string) => {
      await page.goto(`${origin}/?${query}`);
      await Promise.all([page.waitForURL(/\/merci/), page.click('button')]);
      return new URL(page.url());
    };
    expect((await submit('phone=06%2012%2034%2056%2078')).search).toBe('');
    expect((await submit('phone=0612345679&enctype=multipart/form-data')).search).toBe('');
    const refused = await submit('phone=12');
    expect(refused.searchParams.get('error')).toBe('Merci de vérifier les champs : telephone (Numéro de téléphone invalide)');
    const { rows } = await server.ctx.db.query<{ phone: string; source: string; nom: string }>(
      "SELECT phone, source, data->>'nom' AS nom FROM leads WHERE landing_id = $1 ORDER BY id",
      [landing.id],
    );
    expect(rows).toEqual([
      { phone: '0612345678', source: 'taboola', nom: 'Élodie Dupont' },
      { phone: '0612345679', source: 'taboola', nom: 'Élodie Dupont' },
    ]);
  });
});
