import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Access, Endpoint } from '../../src/api/endpoint';
import { AppError, forbidden } from '../errors';
import { landingIdsOfPath } from '../route-params';
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
  endpoint: Endpoint;
}

/**
 * Authenticates every /api route according to the access of its endpoint object, and keeps the
 * table of routes with their endpoints (`app.apiRoutes`): the authorization matrix test and the
 * API's description (GET /api/openapi.json) come from it. An /api route registered without an
 * endpoint (not through server/endpoint.ts `route`) stops the server at start-up.
 */
export default fp(async function auth(app: FastifyInstance) {
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const endpoint = route.config?.endpoint;
    if (endpoint === undefined)
      throw new Error(`${[route.method].flat().join(',')} ${route.url} has no endpoint object (register it with route(app, endpoint, handler))`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD' && method !== 'OPTIONS') apiRoutes.push({ method, url: route.url, auth: endpoint.auth, endpoint });
    }
  });
  app.decorateRequest('user', undefined);
  app.decorateRequest('pathLandings', undefined);
  app.addHook('onRequest', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    if (req.query && typeof req.query === 'object' && 'token' in req.query) {
      throw new AppError(400, 'token_in_query', "Le jeton d'accès ne doit jamais figurer dans l'URL");
    }
    const access = req.routeOptions.config?.endpoint?.auth;
    if (access === 'public') return;
    const session = await userForToken(app.ctx.db, bearerToken(req), landingIdsOfPath((req.params as { ids?: unknown }).ids));
    req.user = session.user;
    req.pathLandings = session.landings;
    if (!req.routeOptions.config.endpoint?.enrolment) await refuseWithoutFactor(app.ctx.db, app.ctx.config, req.user);
    if (access === 'admin' && !req.user.admin) throw forbidden();
  });
});
