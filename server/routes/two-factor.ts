import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import { twoFactorApi } from '../../src/api/two-factor/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { pathId } from '../route-params';
import {
  passkeyNotFound,
  registerPasskey,
  registrationOptions,
  removePasskey,
  renamePasskey,
  signInOptions,
  signInWithPasskey,
} from '../services/two-factor/passkeys';
import { resetFactors } from '../services/two-factor/reset';
import { twoFactorStatus } from '../services/two-factor/status';
import { beginTotp, confirmTotp, removeTotp } from '../services/two-factor/totp';
import { userNotFound } from '../services/users';

// The account's second factors (issue 29); their endpoints carry `enrolment` (src/api/two-factor/endpoints.ts).
export default async function twoFactorRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  route(app, twoFactorApi.status, async (req) => ({ data: await twoFactorStatus(db, currentUser(req).id) }));

  route(app, twoFactorApi.beginTotp, async (req) => ({ data: await beginTotp(db, config, currentUser(req)) }));

  route(app, twoFactorApi.confirmTotp, async (req) => {
    const codes = await confirmTotp(db, config, currentUser(req), req.body.code);
    return { data: { recovery_codes: codes }, message: 'Double authentification activée' };
  });

  route(app, twoFactorApi.removeTotp, async (req) => {
    await removeTotp(db, config, currentUser(req), req.body.code);
    return { data: true as const, message: "Application d'authentification retirée" };
  });

  // The WebAuthn options are spread into a plain object: the library's interfaces lack the open key set the contract declares.
  route(app, twoFactorApi.passkeyOptions, async (req) => ({ data: { ...(await registrationOptions(db, config, currentUser(req))) } }));

  route(app, twoFactorApi.addPasskey, async (req, reply) => {
    const { name, response } = req.body;
    const key = await registerPasskey(db, config, currentUser(req), name, response as unknown as RegistrationResponseJSON);
    reply.status(201);
    return { data: key, message: "Clé d'accès enregistrée" };
  });

  route(app, twoFactorApi.renamePasskey, async (req) => ({
    data: await renamePasskey(db, currentUser(req), pathId(req.params.id, passkeyNotFound), req.body.name),
    message: "Clé d'accès renommée",
  }));

  route(app, twoFactorApi.removePasskey, async (req) => {
    await removePasskey(db, currentUser(req), pathId(req.params.id, passkeyNotFound));
    return { data: true as const, message: "Clé d'accès supprimée" };
  });

  route(app, twoFactorApi.signInOptions, async (req) => ({ data: { ...(await signInOptions(db, config, req.ip)) } }));

  route(app, twoFactorApi.signIn, async (req) => {
    const signedIn = await signInWithPasskey(
      db,
      config,
      { ...req.body, response: req.body.response as unknown as AuthenticationResponseJSON },
      req.ip,
      req.headers['user-agent'] ?? '',
    );
    return { data: signedIn, token: signedIn.token };
  });

  route(app, twoFactorApi.reset, async (req) => {
    await resetFactors(db, currentUser(req).id, pathId(req.params.id, userNotFound));
    return { data: true as const, message: 'Double authentification réinitialisée, les sessions du compte sont fermées' };
  });
}
