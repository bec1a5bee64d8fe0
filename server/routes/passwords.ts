import type { FastifyInstance } from 'fastify';
import { authApi } from '../../src/api/auth/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { bearerToken } from '../plugins/auth';
import { changePassword, requestPasswordReset } from '../services/accounts';
import { checkPasswordLink, forgotLimit, usePasswordLink } from '../services/auth/password-links';
import { consume } from '../services/rate-limit';

/** Invitation and reset links ('Mot de passe oublié ?'), and one's own password change. */
export default async function passwordsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, authApi.checkPasswordLink, async (req) => {
    const link = await checkPasswordLink(db, req.body.token, req.ip);
    return { data: { email: link.email, name: link.name, purpose: link.purpose, expires_at: link.expires_at } };
  });

  route(app, authApi.setPassword, async (req) => {
    const { email } = await usePasswordLink(db, req.body.token, req.body.password, req.ip);
    return { data: { email }, message: 'Mot de passe enregistré, vous pouvez vous connecter' };
  });

  // The same work and the same answer whether the address has an account: the mail job looks it up.
  route(app, authApi.forgotPassword, async (req) => {
    await consume(db, forgotLimit, req.ip);
    await requestPasswordReset(app.ctx, req.body.email);
    return { data: true as const, message: 'Si un compte correspond à cette adresse, un email vient de lui être envoyé' };
  });

  route(app, authApi.changePassword, async (req) => {
    const closed = await changePassword(db, currentUser(req).id, bearerToken(req)!, req.body.current_password, req.body.password);
    return { data: { sessions_closed: closed }, message: 'Mot de passe modifié' };
  });
}
