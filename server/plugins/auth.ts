import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, forbidden } from '../errors';
import { userForToken } from '../services/auth/sessions';

export const bearerToken = (req: FastifyRequest): string | undefined => {
  const header = req.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
};

/** Authenticates every /api route according to its declared access (default: signed in). */
export default fp(async function auth(app: FastifyInstance) {
  app.decorateRequest('user', undefined);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    if (req.query && typeof req.query === 'object' && 'token' in req.query) {
      throw new AppError(400, 'token_in_query', "Le jeton d'accès ne doit jamais figurer dans l'URL");
    }
    const access = req.routeOptions.config?.auth ?? 'user';
    if (access === 'public') return;
    req.user = await userForToken(app.ctx.db, bearerToken(req));
    if (access === 'admin' && !req.user.admin) throw forbidden();
  });
});
