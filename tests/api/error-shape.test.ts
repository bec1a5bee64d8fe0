import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../server/services/auth/sessions';
import { ADMIN, startServer, type TestServer } from './harness';
import { frenchErrorProblem } from './error-shape';

// Malformed requests to every route of the server's route table, as an admin (who passes every
// access check): path parameters, bodies, content types and query strings no client should send.
// Each answer is below 500, and each 4xx a French { error, message }. A new route is covered the
// moment it exists. (Every 4xx of the other API tests is checked by the harness too.)

let server: TestServer;
let adminId: number;

beforeAll(async () => {
  server = await startServer();
  adminId = (await server.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [ADMIN.email])).rows[0].id;
});
afterAll(() => server.close());

/** Path parameters that name nothing (no route may act on a real row) or are not ids at all. */
const badParams = ['999999', 'abc', '-1', '1.5', '%C3%28', '%00', 'x'.repeat(300), '1,,2', '..%2F..%2Fetc'];
/** Bodies that are not the JSON object a route reads. */
const badBodies: Array<{ type: string; body: string }> = [
  { type: 'application/json', body: '{' },
  { type: 'application/json', body: '[]' },
  { type: 'application/json', body: '"texte"' },
  { type: 'application/json', body: 'null' },
  { type: 'application/json', body: '{"__proto__":{"admin":true},"constructor":{"prototype":{}}}' },
  { type: 'application/json', body: '{"name":1,"email":[],"leads":"x","data":{},"type":{},"landing":"","entry_status":null}' },
  { type: 'application/xml', body: '<leads/>' },
  { type: 'text/plain', body: 'pas du json' },
];
const badQueries = ['?_limit=abc&_offset=-1', '?x[=1&%=&&==', '?filter[__proto__]=1&in[constructor]=2', `?q=${'%FF'.repeat(10)}`, '?token=abc'];

describe('every 4xx is a French { error, message }, and no malformed request is a 500', () => {
  it('answers malformed path parameters, bodies and query strings on every route', async () => {
    const failures: string[] = [];
    let checked = 0;
    let token = '';
    const check = async (method: string, path: string, init: { type?: string; body?: string } = {}) => {
      const send = () =>
        fetch(server.url + path, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(init.type ? { 'content-type': init.type } : {}) },
          body: init.body,
        });
      token ||= await openSession(server.ctx.db, adminId, '127.0.0.1', 1);
      let res = await send();
      // A request before may have ended the session (a sign-out, the other sessions ended): a 401 is asked again on a new one.
      if (res.status === 401) {
        await res.body?.cancel();
        token = await openSession(server.ctx.db, adminId, '127.0.0.1', 1);
        res = await send();
      }
      checked++;
      // An event stream (GET /api/events with a query it accepts) never ends by itself: a 200 is no problem.
      if (res.headers.get('content-type')?.startsWith('text/event-stream')) return void (await res.body?.cancel());
      const body = (await res.json().catch(() => undefined)) as unknown;
      const problem = res.status >= 500 ? `status ${res.status}` : res.status >= 400 ? frenchErrorProblem(body) : undefined;
      if (problem) failures.push(`${method} ${path} ${init.body ?? ''}: ${problem} ${JSON.stringify(body)?.slice(0, 200)}`);
    };

    const routes = server.app.apiRoutes;
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const params = route.url.match(/:\w+/g) ?? [];
      // Each malformed parameter in turn, the others named but unknown.
      for (const param of params) {
        for (const bad of badParams) {
          const path = route.url.replace(/:\w+/g, (p) => (p === param ? bad : '999999'));
          await check(route.method, path, route.method === 'GET' ? {} : { type: 'application/json', body: '{}' });
        }
      }
      const path = route.url.replace(/:\w+/g, '999999');
      if (route.method === 'GET') for (const q of badQueries) await check('GET', path + q);
      else for (const b of badBodies) await check(route.method, path, b);
    }
    for (const [method, path] of [
      ['GET', '/api/inexistante'],
      ['POST', '/api/inexistante'],
      ['PUT', '/api/customers'],
      ['PATCH', '/api/landings'],
    ])
      await check(method, path);
    expect(checked).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  }, 180_000);
});
