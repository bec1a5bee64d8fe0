// The response contracts of server/plugins/contracts.ts: every /api route declares one, and with
// checkContracts (every API test) an answer that drifts from it fails as contract_drift.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import contracts from '../../server/plugins/contracts';

async function appWith(check: boolean) {
  const app = Fastify();
  await app.register(contracts, { check });
  return app;
}

describe('response contracts', () => {
  it('refuse an /api route that declares none, at start-up', async () => {
    const app = await appWith(false);
    expect(() => app.get('/api/undeclared', async () => ({ data: 1 }))).toThrow(/declares no response contract/);
    app.get('/api/declared', { config: { response: z.object({ data: z.number() }) } }, async () => ({ data: 1 }));
    await app.close();
  });

  it('turn an answer that drifted from its schema into contract_drift, and let a matching one through', async () => {
    const app = await appWith(true);
    const schema = z.object({ data: z.object({ count: z.number() }), message: z.string() });
    app.get('/api/good', { config: { response: schema } }, async () => ({ data: { count: 2 }, message: 'ok' }));
    app.get('/api/drifted', { config: { response: schema } }, async () => ({ data: { count: '2' } }));
    app.get('/api/refused', { config: { response: schema } }, async (_req, reply) => reply.status(404).send({ error: 'not_found', message: 'x' }));
    expect((await app.inject('/api/good')).json()).toEqual({ data: { count: 2 }, message: 'ok' });
    const drifted = await app.inject('/api/drifted');
    expect(drifted.statusCode).toBe(500);
    expect(drifted.json()).toMatchObject({ error: 'contract_drift', message: expect.stringContaining('data.count') });
    expect((await app.inject('/api/refused')).statusCode).toBe(404);
    await app.close();
  });

  it("turn a body sent by a route declared 'none' into contract_drift, and let an empty answer through", async () => {
    const app = await appWith(true);
    app.get('/api/empty', { config: { response: 'none' } }, async (_req, reply) => reply.status(204).send());
    app.get('/api/talkative', { config: { response: 'none' } }, async () => ({ data: 1 }));
    expect((await app.inject('/api/empty')).statusCode).toBe(204);
    const talkative = await app.inject('/api/talkative');
    expect(talkative.statusCode).toBe(500);
    expect(talkative.json()).toMatchObject({ error: 'contract_drift', message: expect.stringContaining('none') });
    await app.close();
  });
});
