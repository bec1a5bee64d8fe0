import type { Logger } from 'pino';
import type { ResponseContract } from './plugins/contracts';
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

/** Who may call a route: declared on each route as `config: { auth }`, 'user' when absent. */
export type Access = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** Every /api route and its declared access (plugins/auth.ts). */
    apiRoutes: ApiRoute[];
  }
  interface FastifyRequest {
    user: SessionUser | undefined;
  }
  interface FastifyContextConfig {
    auth?: Access;
    /** Reachable by a signed-in account that REQUIRE_2FA sends to enrolment first (its factors, sign-out). */
    enrolment?: true;
    /** The schema of its answer (plugins/contracts.ts); required on every /api route. */
    response?: ResponseContract;
  }
}

/** The signed-in user of a route whose access is 'user' or 'admin'. */
export function currentUser(req: { user: SessionUser | undefined }): SessionUser {
  if (!req.user) throw new Error('currentUser() on a public route');
  return req.user;
}
