import type { FastifyInstance, FastifyRequest } from 'fastify';
import { loginRequest, loginResponse, logoutResponse, meResponse, registerRequest, registerResponse } from '../../src/api/auth/contract';
import { currentUser } from '../context';
import { bearerToken } from '../plugins/auth';
import { login } from '../services/auth/login';
import { closeSession } from '../services/auth/sessions';
import { registerAccount } from '../services/accounts';
import { toUser } from '../services/users';
import { parse } from '../validate';

export default async function authRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  app.post('/api/auth', { config: { auth: 'public', response: loginResponse } }, async (req) => {
    const body = parse(loginRequest, req.body);
    const signedIn = await login(db, config, body, req.ip, req.headers['user-agent'] ?? '');
    return { data: signedIn, token: signedIn.token };
  });

  app.post('/api/login/logout', { config: { auth: 'user', enrolment: true, response: logoutResponse } }, async (req) => {
    await closeSession(db, currentUser(req).id, bearerToken(req)!);
    return { data: true };
  });

  const me = async (req: FastifyRequest) => ({ data: toUser(currentUser(req)) });
  app.get('/api/me', { config: { auth: 'user', response: meResponse } }, me);
  // Kept for older clients; the token comes from the bearer header only (the auth plugin refuses ?token=).
  app.get('/api/user/info', { config: { auth: 'user', response: meResponse } }, me);

  app.post('/api/auth/register', { config: { auth: 'admin', response: registerResponse } }, async (req, reply) => {
    const body = parse(registerRequest, req.body);
    const user = await registerAccount(app.ctx, currentUser(req).id, body);
    return reply.status(201).send({ data: user, message: 'Compte créé, un email a été envoyé au client' });
  });
}
