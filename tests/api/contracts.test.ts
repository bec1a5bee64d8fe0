// The endpoint objects on the server (server/endpoint.ts, plugins/auth.ts, plugins/contracts.ts):
// every /api route is registered from one, and with checkContracts (every API test) an answer that
// drifts from its response fails as contract_drift.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint, type ResponseSpec } from '../../src/api/endpoint';
import { route, zodValidatorCompiler } from '../../server/endpoint';
import auth from '../../server/plugins/auth';
import contracts from '../../server/plugins/contracts';
import errors from '../../server/plugins/errors';

async function appWith(check: boolean) {
  const app = Fastify();
  app.setValidatorCompiler(zodValidatorCompiler);
  await app.register(errors);
  await app.register(auth);
  await app.register(contracts, { check });
  return app;
}

const get = <R extends ResponseSpec>(path: `/api/${string}`, response: R) => defineEndpoint({ method: 'GET', path, auth: 'public', response, summary: path });

describe('endpoint objects on the server', () => {
  it('refuse an /api route registered without its endpoint, at start-up', async () => {
    const app = await appWith(false);
    expect(() => app.get('/api/undeclared', async () => ({ data: 1 }))).toThrow(/has no endpoint object/);
    route(app, get('/api/declared', z.object({ data: z.number() })), async () => ({ data: 1 }));
    // @ts-expect-error an endpoint without `auth` does not typecheck: there is no default access
    expect(() => defineEndpoint({ method: 'GET', path: '/api/no-access', response: 'none', summary: 'x' })).not.toThrow();
    await app.close();
  });

  it('check params, query and body with their schemas: 422 validation_failed naming each field', async () => {
    const app = await appWith(true);
    const endpoint = defineEndpoint({
      method: 'POST',
      path: '/api/things/:id',
      auth: 'public',
      query: z.object({ n: z.coerce.number().int('Nombre entier attendu') }),
      body: z.object({ name: z.string().min(1, 'Nom requis') }),
      response: z.object({ data: z.object({ id: z.string(), n: z.number(), name: z.string() }) }),
      summary: 'test',
    });
    route(app, endpoint, async (req) => ({ data: { id: req.params.id, n: req.query.n, name: req.body.name } }));
    const ok = await app.inject({ method: 'POST', url: '/api/things/7?n=3', payload: { name: 'x' } });
    expect(ok.json()).toEqual({ data: { id: '7', n: 3, name: 'x' } });
    const badQuery = await app.inject({ method: 'POST', url: '/api/things/7?n=1.5', payload: { name: 'x' } });
    expect(badQuery.statusCode).toBe(422);
    expect(badQuery.json()).toMatchObject({ error: 'validation_failed', errors: { n: 'Nombre entier attendu' } });
    const badBody = await app.inject({ method: 'POST', url: '/api/things/7?n=1', payload: { name: '' } });
    expect(badBody.json()).toMatchObject({ error: 'validation_failed', errors: { name: 'Nom requis' } });
    const noBody = await app.inject({ method: 'POST', url: '/api/things/7?n=1' });
    expect(noBody.statusCode).toBe(422);
    expect(noBody.json()).toMatchObject({ errors: { name: expect.any(String) } });
    await app.close();
  });

  it('turn an answer that drifted from its schema into contract_drift, and let a matching one through', async () => {
    const app = await appWith(true);
    const schema = z.object({ data: z.object({ count: z.number() }), message: z.string() });
    route(app, get('/api/good', schema), async () => ({ data: { count: 2 }, message: 'ok' }));
    // A handler the types would refuse, as one written without the endpoint could answer.
    route(app, get('/api/drifted', schema), async () => ({ data: { count: '2' } }) as never);
    route(app, get('/api/refused', schema), async (_req, reply) => reply.status(404).send({ error: 'not_found', message: 'x' }));
    expect((await app.inject('/api/good')).json()).toEqual({ data: { count: 2 }, message: 'ok' });
    const drifted = await app.inject('/api/drifted');
    expect(drifted.statusCode).toBe(500);
    expect(drifted.json()).toMatchObject({ error: 'contract_drift', message: expect.stringContaining('data.count') });
    expect((await app.inject('/api/refused')).statusCode).toBe(404);
    await app.close();
  });

  it("turn a body sent by a route declared 'none' into contract_drift, and let an empty answer through", async () => {
    const app = await appWith(true);
    route(app, get('/api/empty', 'none'), async (_req, reply) => reply.status(204).send());
    route(app, get('/api/talkative', 'none'), async () => ({ data: 1 }) as never);
    expect((await app.inject('/api/empty')).statusCode).toBe(204);
    const talkative = await app.inject('/api/talkative');
    expect(talkative.statusCode).toBe(500);
    expect(talkative.json()).toMatchObject({ error: 'contract_drift', message: expect.stringContaining('none') });
    await app.close();
  });
});
