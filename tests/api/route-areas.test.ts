// Each /api route's access follows from the area it serves, not from what the route declares: the
// areas below are written from the product (docs/product.md §2: Lives and Administration are admin only;
// the audit log is admin data), so a route of an admin area declared 'user' or 'public', or a
// route made public by mistake, fails here. A route that declares no access at all stops the
// server at start-up (server/plugins/auth.ts), and an endpoint object without `auth` fails typecheck.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import authPlugin from '../../server/plugins/auth';
import { startServer, type TestServer } from './harness';

/** Lives (customers, rules, their reports, their sales and returns, why a lead went to a rule and whom it was sold to), Administration (accounts, exports, Taboola, the audit log) and the alerts (issue 26: they reach every admin). */
const adminArea =
  /^\/api\/(customers|rules|rapports|sales|users|exports|big_exports|generate_big_export|taboola|audit|notifications)(\/|$)|^\/api\/auth\/register$|^\/api\/landings\/data\/:id\/(routing|sales)\//;

/** Open without signing in: sign-in (by password, passkey, or single sign-on and its one-time code) and the password links, probes, the API's description, the landing pages' intake, the download links and the sales' return links (256-bit capabilities). */
const publicRoutes = new Set([
  'POST /api/auth',
  'GET /api/auth/methods',
  'GET /api/auth/oidc/start',
  'GET /api/auth/oidc/callback',
  'POST /api/auth/sso',
  'POST /api/auth/passkey',
  'POST /api/auth/passkey/options',
  'POST /api/auth/password/check',
  'POST /api/auth/password/forgot',
  'POST /api/auth/password/reset',
  'GET /api/health',
  'GET /api/ready',
  'GET /api/openapi.json',
  'POST /api/intake/:key',
  'GET /api/exports/:token/:filename',
  'GET /api/retours/:token',
  'POST /api/retours/:token',
]);

/** Settings of a landing (where its form posts go afterwards): administration, though its leads are everybody's. */
const adminRoutes = new Set(['PATCH /api/landings/:id']);

const areaOf = (method: string, url: string) =>
  publicRoutes.has(`${method} ${url}`) ? 'public' : adminRoutes.has(`${method} ${url}`) || adminArea.test(url) ? 'admin' : 'user';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('route areas', () => {
  it('give every route the access of its area, whatever it declares', () => {
    const routes = server.app.apiRoutes;
    expect(routes.length).toBeGreaterThan(40);
    const wrong = routes
      .filter((r) => r.auth !== areaOf(r.method, r.url))
      .map((r) => `${r.method} ${r.url}: declares ${r.auth}, its area is ${areaOf(r.method, r.url)}`);
    expect(wrong).toEqual([]);
  });

  it('refuse at start-up a route registered without its endpoint (and so without access)', async () => {
    const app = Fastify();
    await app.register(authPlugin);
    expect(() => app.get('/api/undeclared', async () => undefined)).toThrow(/has no endpoint object/);
    await app.close();
  });
});
