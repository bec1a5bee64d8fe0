import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authApi } from '../../src/api/auth/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { bearerToken } from '../plugins/auth';
import { login } from '../services/auth/login';
import { closeSession } from '../services/auth/sessions';
import { registerAccount } from '../services/accounts';
import { toUser } from '../services/users';

export default async function authRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  route(app, authApi.login, async (req) => {
    const signedIn = await login(db, config, req.body, req.ip, req.headers['user-agent'] ?? '');
    return { data: signedIn, token: signedIn.token };
  });

  route(app, authApi.logout, async (req) => {
    await closeSession(db, currentUser(req).id, bearerToken(req)!);
    return { data: true as const };
  });

  const me = async (req: FastifyRequest) => ({ data: toUser(currentUser(req)) });
  route(app, authApi.me, me);
  // Kept for older clients; the token comes from the bearer header only (the auth plugin refuses ?token=).
  route(app, authApi.userInfo, me);

  route(app, authApi.register, async (req, reply) => {
    const user = await registerAccount(app.ctx, currentUser(req).id, req.body);
    reply.status(201);
    return { data: user, message: 'Compte créé, un email a été envoyé au client' };
  });
}
