import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tooLarge } from '../errors';

/**
 * A body whose declared length passes its route's `bodyLimit` is refused before a byte of it is
 * read. Fastify checks it itself for the bodies it parses (JSON), not for multipart uploads, whose
 * parts the route streams; those are also cut by their own limits as they arrive (a body without
 * a declared length).
 */
export default fp(async function declaredLength(app: FastifyInstance) {
  app.addHook('onRequest', async (req) => {
    const declared = Number(req.headers['content-length']);
    const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit;
    if (declared > limit) throw tooLarge(limit);
  });
});
