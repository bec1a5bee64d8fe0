import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';

// A body nested deeper than any contract (issue 24, item 5): 20,000 arrays overflowed the stack of
// whatever walked it first, a 500 on every route that reads JSON.

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

describe('a JSON body of 20,000 nested arrays', () => {
  it('is a 400 bad_request on every route that takes a body, like malformed JSON', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const answers: string[] = [];
    const routes = server.app.apiRoutes.filter((r) => r.method !== 'GET' && r.method !== 'DELETE');
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      for (const [type, body] of [
        ['application/json', deep],
        ['text/plain', `{"a":${deep}}`],
      ]) {
        const res = await fetch(server.url + route.url.replace(/:\w+/g, '999999'), {
          method: route.method,
          headers: { authorization: `Bearer ${token}`, 'content-type': type },
          body,
        });
        const answer = (await res.json()) as { error: string; message: string };
        answers.push(`${route.method} ${route.url} ${type}: ${res.status} ${answer.error} ${answer.message}`);
      }
    }
    const refused = (line: string) => line.endsWith(": 400 bad_request Le corps de la requête n'est pas un JSON valide");
    // The import and the Taboola upload read multipart only: their refusal of a JSON body stays.
    expect(answers.filter((line) => !refused(line) && !line.includes(' 415 '))).toEqual([]);
    expect(answers.filter(refused).length).toBeGreaterThan(40);
  }, 60_000);
});
