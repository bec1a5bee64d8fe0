import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../server/services/auth/sessions';
import { createUser } from '../../server/services/users';
import { ADMIN, startServer, type TestServer } from './harness';

// Every /api route × (no token, expired token, normal user, admin), generated from the server's
// own route table: a new route is in the matrix the moment it exists, and fails it unless it
// declares its access (its endpoint object's `auth: 'public' | 'user' | 'admin'`).

let server: TestServer;
let adminId: number;
let staffId: number;

beforeAll(async () => {
  server = await startServer();
  const ids = async (email: string) => (await server.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email])).rows[0].id;
  adminId = await ids(ADMIN.email);
  await createUser(server.ctx.db, { name: 'Matrice', email: 'matrix@test.local', password: 'matrix-password-1' });
  staffId = await ids('matrix@test.local');
});
afterAll(() => server.close());

type Actor = 'none' | 'expired' | 'normal' | 'admin';
const actors: Actor[] = ['none', 'expired', 'normal', 'admin'];

/** A plausible value for each path parameter; what the route does with it does not matter here. */
const sample: Record<string, string> = {
  ids: '1',
  id: '1',
  accountId: '1',
  campaignId: '1',
  departement: '30',
  leadId: '1',
  ruleId: '1',
  key: 'unknown-key',
  token: 'x'.repeat(43),
  filename: 'f.csv',
  category: 'production',
  start: '2025-01-01',
  end: '2025-01-31',
  zone: '0',
  month: '2025-01',
};
const fill = (url: string) =>
  url.replace(/:(\w+)/g, (_, name: string) => {
    if (!(name in sample)) throw new Error(`no sample value for the path parameter :${name} of ${url}: add one`);
    return sample[name];
  });

/** A fresh session per call (logout ends the one it is given); for 'expired', one that ended an hour ago. */
async function tokenOf(actor: Actor): Promise<string | undefined> {
  if (actor === 'none') return undefined;
  return openSession(server.ctx.db, actor === 'admin' ? adminId : staffId, '127.0.0.1', actor === 'expired' ? -1 : 1);
}

/** What each declared access lets each actor get: the error expected, or 'passes' (any answer but 401/403). */
const expected: Record<'public' | 'user' | 'admin', Record<Actor, 'passes' | 'token_not_provided' | 'token_expired' | 'forbidden'>> = {
  public: { none: 'passes', expired: 'passes', normal: 'passes', admin: 'passes' },
  user: { none: 'token_not_provided', expired: 'token_expired', normal: 'passes', admin: 'passes' },
  admin: { none: 'token_not_provided', expired: 'token_expired', normal: 'forbidden', admin: 'passes' },
};

describe('authorization matrix', () => {
  it('covers every route, and every route declares its access', () => {
    const routes = server.app.apiRoutes;
    expect(routes.length).toBeGreaterThan(20);
    const undeclared = routes.filter((r) => r.auth === undefined).map((r) => `${r.method} ${r.url}`);
    expect(undeclared, 'routes without an endpoint access').toEqual([]);
  });

  it('answers each actor on each route as its declared access says, and never 5xx', async () => {
    const failures: string[] = [];
    for (const route of server.app.apiRoutes) {
      for (const actor of actors) {
        const token = await tokenOf(actor);
        const res = await server.request(route.method, fill(route.url), { token, body: route.method === 'GET' ? undefined : {} });
        // An event stream (GET /api/events) never ends by itself: its answer is its status.
        const stream = res.headers.get('content-type')?.startsWith('text/event-stream');
        if (stream) await res.body?.cancel();
        const body = (stream ? {} : await res.json().catch(() => ({}))) as { error?: string };
        const want = expected[route.auth][actor];
        const got = res.status === 401 || res.status === 403 ? body.error : 'passes';
        if (got !== want || res.status >= 500) failures.push(`${route.method} ${route.url} as ${actor}: ${res.status} ${body.error ?? ''}, expected ${want}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
