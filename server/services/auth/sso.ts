import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/connection';
import { AppError, notFound } from '../../errors';
import { audit } from '../audit';
import type { RateLimit } from '../rate-limit';
import { findByEmail, toUser } from '../users';
import { hashToken, openSession } from './sessions';
import { recordLoginSuccess } from './throttle';

/** Why an SSO sign-in came back to the sign-in page (`/login?sso_error=<reason>`, which the page words). */
export type SsoFailure = 'expired' | 'refused' | 'failed' | 'unverified' | 'unknown';

export class SsoError extends Error {
  constructor(
    readonly reason: SsoFailure,
    readonly detail: string,
    /** False for a callback that belongs to no flow: anyone may call it, and it attempted no sign-in. */
    readonly audited = true,
  ) {
    super(detail);
  }
}

/** Sign-ins started per address: each writes a flow row before anyone has signed in. */
export const ssoStartLimit: RateLimit = {
  bucket: 'sso-start',
  max: 30,
  windowSeconds: 15 * 60,
  message: 'Trop de connexions unique commencées depuis cette adresse, réessayez dans quelques minutes',
};

/** The configured identity provider, or null without OIDC_ISSUER. */
export interface SsoProvider {
  label: string;
  configuration: () => Promise<oidc.Configuration>;
}

const FLOW_SECONDS = 600;
const CODE_SECONDS = 60;

/**
 * The provider's metadata and keys, read once (discovery) and again after a failure: a cache of
 * what the provider publishes, not of any request.
 */
export function ssoProvider(config: Config): SsoProvider | null {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: secret } = config;
  if (!issuer || !clientId || !secret) return null;
  let discovered: Promise<oidc.Configuration> | undefined;
  const configuration = () => {
    discovered ??= oidc
      .discovery(new URL(issuer), clientId, undefined, oidc.ClientSecretBasic(secret), {
        // A provider on plain http: only a test's or a developer's own, on this machine.
        execute: new URL(issuer).protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
    return discovered;
  };
  return { label: config.OIDC_LABEL, configuration };
}

export const notConfigured = () => notFound("La connexion unique n'est pas configurée sur ce serveur");

/**
 * Starts a sign-in at the provider: PKCE, `state` and `nonce` drawn here and kept in the database
 * under the hash of `browser` (a random value the route sets as a cookie), so only the browser that
 * started the flow can finish it. Answers the provider's authorization URL.
 */
export async function startSso(db: Queryable, provider: SsoProvider, redirectUri: string, browser: string): Promise<URL> {
  const configuration = await provider.configuration();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  await db.query('DELETE FROM oidc_flows WHERE expires_at < now()');
  await db.query(`INSERT INTO oidc_flows (browser_hash, state, nonce, code_verifier, expires_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`, [
    hashToken(browser),
    state,
    nonce,
    verifier,
    FLOW_SECONDS,
  ]);
  return oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
}

/** The verified email of the identity the provider returned (from the id token, else from userinfo). */
async function verifiedEmail(configuration: oidc.Configuration, tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>): Promise<string> {
  const claims = tokens.claims();
  if (!claims) throw new SsoError('failed', 'no id token');
  let { email, email_verified: verified } = claims as { email?: unknown; email_verified?: unknown };
  if (typeof email !== 'string') {
    const info = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    ({ email, email_verified: verified } = info);
  }
  if (typeof email !== 'string' || !email) throw new SsoError('unverified', 'no email');
  if (verified !== true) throw new SsoError('unverified', `email ${email} not verified`);
  return email.trim().toLowerCase();
}

/**
 * The provider's answer at the callback (`callbackUrl`, as the browser asked it): checked by
 * openid-client against the flow of this browser (state, PKCE verifier, nonce, the id token's
 * issuer, audience and signature). The flow is used once. The verified email must be an
 * existing account's: no account is ever created here. Answers a one-time code for the sign-in
 * page, valid 60 seconds.
 */
export async function finishSso(db: Db, provider: SsoProvider, callbackUrl: URL, browser: string | undefined, userAgent: string): Promise<string> {
  const flow = browser
    ? (
        await db.query<{ state: string; nonce: string; code_verifier: string }>(
          'DELETE FROM oidc_flows WHERE browser_hash = $1 AND expires_at > now() RETURNING state, nonce, code_verifier',
          [hashToken(browser)],
        )
      ).rows[0]
    : undefined;
  if (!flow) throw new SsoError('expired', 'no flow for this browser', false);
  if (callbackUrl.searchParams.get('error') === 'access_denied') throw new SsoError('refused', 'access_denied');
  const configuration = await provider.configuration();
  let tokens;
  try {
    tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      pkceCodeVerifier: flow.code_verifier,
      idTokenExpected: true,
    });
  } catch (error) {
    // openid-client's message is generic; the check that failed (the id token's aud, iss, nonce…) is its cause's: the audit row keeps both.
    const cause = error instanceof Error ? error.cause : undefined;
    const detail = `${error instanceof Error ? error.message : String(error)}${cause instanceof Error ? `: ${cause.message}` : ''}`;
    throw new SsoError(callbackUrl.searchParams.get('state') === flow.state ? 'failed' : 'expired', detail);
  }
  const email = await verifiedEmail(configuration, tokens);
  const account = await findByEmail(db, email);
  if (!account) throw new SsoError('unknown', `no account for ${email}`);
  const code = randomBytes(32).toString('base64url');
  await db.query('DELETE FROM sso_codes WHERE expires_at < now()');
  await db.query(`INSERT INTO sso_codes (code_hash, user_id, user_agent, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`, [
    hashToken(code),
    account.id,
    userAgent.slice(0, 500),
    CODE_SECONDS,
  ]);
  return code;
}

/** A refused SSO sign-in, in the audit log beside the refused passwords. */
export async function auditSsoFailure(db: Queryable, failure: SsoError) {
  await audit(db, {
    actorId: null,
    action: 'auth.sign_in_failed',
    entity: 'session',
    count: 1,
    details: { method: 'sso', reason: failure.reason, detail: failure.detail.slice(0, 300) },
  });
}

const codeRefused = () => new AppError(401, 'invalid_credentials', 'Code de connexion unique invalide ou expiré : reconnectez-vous');

/** POST /api/auth/sso: the one-time code for a session, once and within its 60 seconds. */
export async function exchangeSsoCode(db: Db, code: string, ip: string, userAgent: string, ttlHours: number) {
  return db.tx(async (q) => {
    const { rows } = await q.query<{ user_id: number; fresh: boolean }>(
      'DELETE FROM sso_codes WHERE code_hash = $1 RETURNING user_id, expires_at > now() AS fresh',
      [hashToken(code)],
    );
    if (!rows[0]?.fresh) throw codeRefused();
    const account = (await q.query<Parameters<typeof toUser>[0]>('SELECT * FROM users WHERE id = $1', [rows[0].user_id])).rows[0];
    if (!account) throw codeRefused();
    await recordLoginSuccess(q, account.id, account.email.toLowerCase(), ip);
    const token = await openSession(q, account.id, ip, ttlHours, { userAgent, method: 'sso' });
    await audit(q, { actorId: account.id, action: 'auth.sign_in', entity: 'session', count: 1, details: { method: 'sso' } });
    return { token, user: toUser(account) };
  });
}
