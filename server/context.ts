import type { Logger } from 'pino';
import type { Access, Endpoint } from '../src/api/endpoint';
import type { Landing } from '../src/api/landings/contract';
import type { Config } from './config';
import type { Db } from './db/connection';
import type { Jobs } from './services/jobs';
import type { Mailer } from './services/mail';
import type { SessionUser } from './services/auth/sessions';
import type { ApiRoute } from './plugins/auth';

/** Everything a route hands to its services. */
export interface AppContext {
  config: Config;
  db: Db;
  jobs: Jobs;
  mailer: Mailer;
  log: Logger;
}

export type { Access };

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Every /api route and its declared access (plugins/auth.ts). */
    apiRoutes: ApiRoute[];
  }
  interface FastifyRequest {
    user: SessionUser | undefined;
    /** The landings its path names (':ids'), read with its session (plugins/auth.ts, route-params.ts). */
    pathLandings: Landing[] | undefined;
  }
  interface FastifyContextConfig {
    /** The endpoint object an /api route is registered from (server/endpoint.ts `route`): its access and response. */
    endpoint?: Endpoint;
  }
}

/** The signed-in user of a route whose access is 'user' or 'admin'. */
export function currentUser(req: { user: SessionUser | undefined }): SessionUser {
  if (!req.user) throw new Error('currentUser() on a public route');
  return req.user;
}
