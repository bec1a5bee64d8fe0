import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance } from 'fastify';
import {
  codeRequest,
  factorRemovedResponse,
  passkeyRegisterRequest,
  passkeyRenameRequest,
  passkeyResponse,
  passkeySignInRequest,
  passkeySignInResponse,
  totpConfirmResponse,
  totpEnrolmentResponse,
  twoFactorStatusResponse,
  webauthnOptionsResponse,
} from '../../src/api/two-factor/contract';
import { currentUser } from '../context';
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
import { parse } from '../validate';

// The account's second factors (issue 29). `enrolment: true`: reachable by an account that
// REQUIRE_2FA sends to enrolment before anything else.
export default async function twoFactorRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;
  const own = { auth: 'user', enrolment: true } as const;

  app.get('/api/me/2fa', { config: { ...own, response: twoFactorStatusResponse } }, async (req) => ({ data: await twoFactorStatus(db, currentUser(req).id) }));

  app.post('/api/me/2fa/totp', { config: { ...own, response: totpEnrolmentResponse } }, async (req) => ({
    data: await beginTotp(db, config, currentUser(req)),
  }));

  app.post('/api/me/2fa/totp/confirm', { config: { ...own, response: totpConfirmResponse } }, async (req) => {
    const { code } = parse(codeRequest, req.body);
    const codes = await confirmTotp(db, config, currentUser(req), code);
    return { data: { recovery_codes: codes }, message: 'Double authentification activée' };
  });

  app.delete('/api/me/2fa/totp', { config: { ...own, response: factorRemovedResponse } }, async (req) => {
    const { code } = parse(codeRequest, req.body);
    await removeTotp(db, config, currentUser(req), code);
    return { data: true as const, message: "Application d'authentification retirée" };
  });

  app.post('/api/me/2fa/passkeys/options', { config: { ...own, response: webauthnOptionsResponse } }, async (req) => ({
    data: await registrationOptions(db, config, currentUser(req)),
  }));

  app.post('/api/me/2fa/passkeys', { config: { ...own, response: passkeyResponse } }, async (req, reply) => {
    const body = parse(passkeyRegisterRequest, req.body);
    const key = await registerPasskey(db, config, currentUser(req), body.name, body.response as unknown as RegistrationResponseJSON);
    return reply.status(201).send({ data: key, message: "Clé d'accès enregistrée" });
  });

  app.patch<{ Params: { id: string } }>('/api/me/2fa/passkeys/:id', { config: { ...own, response: passkeyResponse } }, async (req) => {
    const { name } = parse(passkeyRenameRequest, req.body);
    return { data: await renamePasskey(db, currentUser(req), pathId(req.params.id, passkeyNotFound), name), message: "Clé d'accès renommée" };
  });

  app.delete<{ Params: { id: string } }>('/api/me/2fa/passkeys/:id', { config: { ...own, response: factorRemovedResponse } }, async (req) => {
    await removePasskey(db, currentUser(req), pathId(req.params.id, passkeyNotFound));
    return { data: true as const, message: "Clé d'accès supprimée" };
  });

  app.post('/api/auth/passkey/options', { config: { auth: 'public', response: webauthnOptionsResponse } }, async (req) => ({
    data: await signInOptions(db, config, req.ip),
  }));

  app.post('/api/auth/passkey', { config: { auth: 'public', response: passkeySignInResponse } }, async (req) => {
    const body = parse(passkeySignInRequest, req.body);
    const signedIn = await signInWithPasskey(db, config, { ...body, response: body.response as unknown as AuthenticationResponseJSON }, req.ip, req.headers['user-agent'] ?? '');
    return { data: signedIn, token: signedIn.token };
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id/2fa', { config: { auth: 'admin', response: factorRemovedResponse } }, async (req) => {
    await resetFactors(db, currentUser(req).id, pathId(req.params.id, userNotFound));
    return { data: true as const, message: 'Double authentification réinitialisée, les sessions du compte sont fermées' };
  });
}
