import type { FastifyInstance } from 'fastify';
import {
  forgotPasswordRequest,
  forgotPasswordResponse,
  passwordChangeRequest,
  passwordChangeResponse,
  passwordCheckRequest,
  passwordCheckResponse,
  passwordSetRequest,
  passwordSetResponse,
} from '../../src/api/users/contract';
import { currentUser } from '../context';
import { bearerToken } from '../plugins/auth';
import { changePassword, requestPasswordReset } from '../services/accounts';
import { checkPasswordLink, forgotLimit, usePasswordLink } from '../services/auth/password-links';
import { consume } from '../services/rate-limit';
import { parse } from '../validate';

/** Invitation and reset links ('Mot de passe oublié ?'), and one's own password change. */
export default async function passwordsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.post('/api/auth/password/check', { config: { auth: 'public', response: passwordCheckResponse } }, async (req) => {
    const { token } = parse(passwordCheckRequest, req.body ?? {});
    const link = await checkPasswordLink(db, token, req.ip);
    return { data: { email: link.email, name: link.name, purpose: link.purpose, expires_at: link.expires_at } };
  });

  app.post('/api/auth/password/reset', { config: { auth: 'public', response: passwordSetResponse } }, async (req) => {
    const body = parse(passwordSetRequest, req.body ?? {});
    const { email } = await usePasswordLink(db, body.token, body.password, req.ip);
    return { data: { email }, message: 'Mot de passe enregistré, vous pouvez vous connecter' };
  });

  // The same work and the same answer whether the address has an account: the mail job looks it up.
  app.post('/api/auth/password/forgot', { config: { auth: 'public', response: forgotPasswordResponse } }, async (req) => {
    const { email } = parse(forgotPasswordRequest, req.body ?? {});
    await consume(db, forgotLimit, req.ip);
    await requestPasswordReset(app.ctx, email);
    return { data: true as const, message: 'Si un compte correspond à cette adresse, un email vient de lui être envoyé' };
  });

  app.post('/api/me/password', { config: { auth: 'user', response: passwordChangeResponse } }, async (req) => {
    const body = parse(passwordChangeRequest, req.body ?? {});
    const closed = await changePassword(db, currentUser(req).id, bearerToken(req)!, body.current_password, body.password);
    return { data: { sessions_closed: closed }, message: 'Mot de passe modifié' };
  });
}
