import Fastify from 'fastify';
import { expect, it } from 'vitest';
import errors from '../../../../server/plugins/errors';

it('answers a deadlock or a serialization failure with 409 in French, not 500', async () => {
  const app = Fastify({ logger: false });
  await app.register(errors);
  app.get('/:code', (req) => {
    throw Object.assign(new Error('deadlock detected'), { code: (req.params as { code: string }).code });
  });
  for (const code of ['40P01', '40001']) {
    const res = await app.inject({ url: `/${code}` });
    expect(res.statusCode, code).toBe(409);
    expect(res.json()).toEqual({ error: 'conflict', message: "Une autre action sur les mêmes données était en cours : rien n'a été fait, réessayez" });
  }
  expect((await app.inject({ url: '/42P01' })).statusCode).toBe(500);
  await app.close();
});
