import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '../../../src/api/two-factor/contract';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/connection';
import { AppError, notFound } from '../../errors';
import { audit } from '../audit';
import { checkPassword, openSignedIn } from '../auth/login';
import { publicUrl } from '../auth/password-links';
import type { SessionUser } from '../auth/sessions';
import { checkLoginAllowed, recordLoginFailure } from '../auth/throttle';
import { consume, type RateLimit } from '../rate-limit';
import { findByEmail } from '../users';

const CHALLENGE_SECONDS = 300;
export const passkeyNotFound = "Clé d'accès introuvable";

/** The relying party is the console's public address (PUBLIC_URL): never a request's Host header. */
function relyingParty(config: Config) {
  const url = new URL(publicUrl(config));
  return { rpID: url.hostname, origin: url.origin };
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

export async function listPasskeys(q: Queryable, userId: number): Promise<Passkey[]> {
  const { rows } = await q.query<Passkey>(`SELECT id, name, ${iso('created_at')} AS created_at FROM passkeys WHERE user_id = $1 ORDER BY created_at, id`, [
    userId,
  ]);
  return rows;
}

async function keepChallenge(q: Queryable, challenge: string, userId: number | null, purpose: 'register' | 'sign_in') {
  await q.query('DELETE FROM webauthn_challenges WHERE expires_at < now()');
  await q.query(`INSERT INTO webauthn_challenges (challenge, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`, [
    challenge,
    userId,
    purpose,
    CHALLENGE_SECONDS,
  ]);
}

const invalid = (message = "Clé d'accès refusée") => new AppError(401, 'passkey_invalid', message);

/** Spends the challenge the answer signed (single use, five minutes), or refuses the answer. */
async function takeChallenge(q: Queryable, clientDataJSON: string, userId: number | null, purpose: 'register' | 'sign_in'): Promise<string> {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown }).challenge;
  } catch {
    throw invalid();
  }
  if (typeof challenge !== 'string') throw invalid();
  const { rowCount } = await q.query(
    'DELETE FROM webauthn_challenges WHERE challenge = $1 AND user_id IS NOT DISTINCT FROM $2 AND purpose = $3 AND expires_at > now()',
    [challenge, userId, purpose],
  );
  if (rowCount !== 1) throw invalid("Demande expirée ou déjà utilisée : recommencez avec la clé d'accès");
  return challenge;
}

/** Options for navigator.credentials.create(): a discoverable credential, so that it can sign in alone. */
export async function registrationOptions(db: Db, config: Config, user: SessionUser) {
  const { rows } = await db.query<{ credential_id: string; transports: string[] }>('SELECT credential_id, transports FROM passkeys WHERE user_id = $1', [
    user.id,
  ]);
  const options = await generateRegistrationOptions({
    rpName: 'Console leads',
    rpID: relyingParty(config).rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(`user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: rows.map((r) => ({ id: r.credential_id, transports: r.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await keepChallenge(db, options.challenge, user.id, 'register');
  return options;
}

/** Keeps the key the browser made from those options. */
export async function registerPasskey(db: Db, config: Config, user: SessionUser, name: string, response: RegistrationResponseJSON): Promise<Passkey> {
  const rp = relyingParty(config);
  // Spent before the checks, outside the transaction: a refused answer spends its challenge too.
  const expectedChallenge = await takeChallenge(db, response.response.clientDataJSON, user.id, 'register');
  return db.tx(async (q) => {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    }).catch(() => ({ verified: false as const }));
    if (!result.verified) throw invalid("Clé d'accès refusée : la réponse de l'appareil ne correspond pas à la demande");
    const { credential } = result.registrationInfo;
    const { rows } = await q.query<Passkey>(
      `INSERT INTO passkeys (user_id, credential_id, public_key, counter, transports, name) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (credential_id) DO NOTHING RETURNING id, name, ${iso('created_at')} AS created_at`,
      [user.id, credential.id, Buffer.from(credential.publicKey), credential.counter, credential.transports ?? [], name],
    );
    if (!rows[0]) throw new AppError(409, 'conflict', "Cette clé d'accès est déjà enregistrée");
    await audit(q, { actorId: user.id, action: 'users.2fa.passkey_added', entity: 'user', count: 1, details: { user_id: user.id, passkey_id: rows[0].id } });
    return rows[0];
  });
}

export async function renamePasskey(db: Db, user: SessionUser, id: number, name: string): Promise<Passkey> {
  const { rows } = await db.query<Passkey>(
    `UPDATE passkeys SET name = $3 WHERE id = $1 AND user_id = $2 RETURNING id, name, ${iso('created_at')} AS created_at`,
    [id, user.id, name],
  );
  if (!rows[0]) throw notFound(passkeyNotFound);
  return rows[0];
}

export async function removePasskey(db: Db, user: SessionUser, id: number): Promise<void> {
  await db.tx(async (q) => {
    const { rowCount } = await q.query('DELETE FROM passkeys WHERE id = $1 AND user_id = $2', [id, user.id]);
    if (rowCount !== 1) throw notFound(passkeyNotFound);
    await audit(q, { actorId: user.id, action: 'users.2fa.passkey_removed', entity: 'user', count: 1, details: { user_id: user.id, passkey_id: id } });
  });
}

/** Public and writing a row each: 30 a minute per address is more than any sign-in page asks for. */
const signInOptionsLimit: RateLimit = {
  bucket: 'passkey-options',
  max: 30,
  windowSeconds: 60,
  message: 'Trop de demandes de connexion par clé depuis cette adresse, réessayez dans une minute',
};

/** Options for navigator.credentials.get(): no account named, the authenticator offers the keys it holds for the console. */
export async function signInOptions(db: Db, config: Config, ip: string) {
  await consume(db, signInOptionsLimit, ip);
  const options = await generateAuthenticationOptions({ rpID: relyingParty(config).rpID, userVerification: 'preferred' });
  await keepChallenge(db, options.challenge, null, 'sign_in');
  return options;
}

// The pair throttled for a passkey without an email: one bucket per address, like a wrong password.
const PASSKEY_LOGIN = '(passkey)';

/**
 * Signs in with a passkey. Alone, the authenticator must have verified its user (PIN, biometrics:
 * two factors in one); with `email` and `password`, the key is that account's second factor and
 * must be one of its own. Failures count in the sign-in throttle.
 */
export async function signInWithPasskey(
  db: Db,
  config: Config,
  body: { response: AuthenticationResponseJSON; email?: string; password?: string },
  ip: string,
  userAgent: string,
) {
  const rp = relyingParty(config);
  const login = body.email ?? PASSKEY_LOGIN;
  const account = body.email !== undefined ? await checkPassword(db, body.email, body.password ?? '', ip) : undefined;
  if (!account) await checkLoginAllowed(db, login, ip);
  const fail = async (message?: string): Promise<never> => {
    await recordLoginFailure(db, login, ip);
    throw invalid(message);
  };
  const expectedChallenge = await takeChallenge(db, body.response.response.clientDataJSON, null, 'sign_in').catch((e: Error) => fail(e.message));
  const { rows } = await db.query<{ id: number; user_id: number; public_key: Buffer; counter: string; transports: string[] }>(
    'SELECT id, user_id, public_key, counter, transports FROM passkeys WHERE credential_id = $1',
    [body.response.id],
  );
  const key = rows[0];
  if (!key || (account && key.user_id !== account.id)) return fail();
  const result = await verifyAuthenticationResponse({
    response: body.response,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    credential: { id: body.response.id, publicKey: new Uint8Array(key.public_key), counter: Number(key.counter), transports: key.transports },
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const, authenticationInfo: undefined }));
  if (!result.verified || !result.authenticationInfo) return fail();
  if (!account && !result.authenticationInfo.userVerified) {
    return fail("Cette clé n'a pas vérifié votre identité (code ou empreinte) : saisissez d'abord votre mot de passe");
  }
  await db.query('UPDATE passkeys SET counter = $2, last_used_at = now() WHERE id = $1', [key.id, result.authenticationInfo.newCounter]);
  const owner = account ?? (await accountById(db, key.user_id));
  return openSignedIn(db, config, owner, ip, true, { userAgent, method: 'passkey' });
}

async function accountById(q: Queryable, id: number) {
  const { rows } = await q.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [id]);
  const account = rows[0] && (await findByEmail(q, rows[0].email));
  if (!account) throw invalid();
  return account;
}
