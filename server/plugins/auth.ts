import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Access } from '../context';
import { AppError, forbidden } from '../errors';
import { userForToken } from '../services/auth/sessions';
import { refuseWithoutFactor } from '../services/two-factor/policy';

export const bearerToken = (req: FastifyRequest): string | undefined => {
  const header = req.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
};

/** An /api route as registered, with the access it declares. */
export interface ApiRoute {
  method: string;
  url: string;
  auth: Access;
}

/**
 * Authenticates every /api route according to its declared access, and keeps the table of routes
 * with their access (`app.apiRoutes`): the authorization matrix test is generated from it. A route
 * that declares no access stops the server at start-up: there is no default to fall back to.
 */
export default fp(async function auth(app: FastifyInstance) {
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const auth = route.config?.auth;
    if (auth === undefined) throw new Error(`${[route.method].flat().join(',')} ${route.url} declares no access (config.auth: 'public' | 'user' | 'admin')`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD' && method !== 'OPTIONS') apiRoutes.push({ method, url: route.url, auth });
    }
  });
  app.decorateRequest('user', undefined);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    if (req.query && typeof req.query === 'object' && 'token' in req.query) {
      throw new AppError(400, 'token_in_query', "Le jeton d'accès ne doit jamais figurer dans l'URL");
    }
    const access = req.routeOptions.config?.auth;
    if (access === 'public') return;
    req.user = await userForToken(app.ctx.db, bearerToken(req));
    if (!req.routeOptions.config.enrolment) await refuseWithoutFactor(app.ctx.db, app.ctx.config, req.user);
    if (access === 'admin' && !req.user.admin) throw forbidden();
  });
});
