import type { Config } from '../../config';
import type { Queryable } from '../../db/connection';
import { AppError } from '../../errors';
import { audit } from '../audit';
import { findByEmail, toUser } from '../users';
import { factorRequired, factorsOf, hasFactor } from '../two-factor/policy';
import { spendFactorCode } from '../two-factor/totp';
import { decoyHash, verifyPassword } from './passwords';
import { openSession, type SessionOrigin } from './sessions';
import { checkLoginAllowed, recordLoginFailure, recordLoginSuccess } from './throttle';

const refused = () => new AppError(401, 'invalid_credentials', 'Identification impossible');

type Account = NonNullable<Awaited<ReturnType<typeof findByEmail>>>;

/**
 * The account of an email and password, or a 401 counted by the throttle. Unknown emails and
 * wrong passwords answer alike, after the same scrypt work, so neither the message, the status
 * nor the timing tells them apart.
 */
export async function checkPassword(db: Queryable, login: string, password: string, ip: string): Promise<Account> {
  await checkLoginAllowed(db, login, ip);
  const account = await findByEmail(db, login);
  const ok = await verifyPassword(password, account?.password_hash ?? (await decoyHash()));
  if (!account || !ok) {
    await recordLoginFailure(db, login, ip);
    await signInFailed(db, login, 'password');
    throw refused();
  }
  return account;
}

const signInFailed = (db: Queryable, login: string, method: SessionOrigin['method']) =>
  audit(db, { actorId: null, action: 'auth.sign_in_failed', entity: 'session', count: 1, details: { login: login.slice(0, 254), method } });

/**
 * Signs in by email and password, and the second factor of an account that has one: `code`, a
 * TOTP code or a recovery code (401 code_required without it, code_invalid when wrong or already
 * used, counted by the throttle like a wrong password). A passkey signs in through
 * two-factor/passkeys.ts instead.
 */
export async function login(db: Queryable, config: Config, body: { login: string; password: string; code?: string }, ip: string, userAgent: string) {
  const account = await checkPassword(db, body.login, body.password, ip);
  const factors = await factorsOf(db, account.id);
  if (hasFactor(factors)) {
    const methods = [...(factors.totp ? ['totp'] : []), ...(factors.passkeys ? ['passkey'] : [])];
    if (!body.code) throw new AppError(401, 'code_required', 'Code de double authentification requis', { methods });
    if (!(await spendFactorCode(db, config, account.id, body.code))) {
      await recordLoginFailure(db, body.login, ip);
      await signInFailed(db, body.login, 'password');
      throw new AppError(401, 'code_invalid', 'Code incorrect, expiré ou déjà utilisé', { methods });
    }
  }
  return openSignedIn(db, config, account, ip, hasFactor(factors), { userAgent, method: 'password' });
}

/** Opens the session of an account that passed every check; says whether it must enrol a factor first (REQUIRE_2FA). */
export async function openSignedIn(db: Queryable, config: Config, account: Account, ip: string, withFactor: boolean, origin: SessionOrigin) {
  await recordLoginSuccess(db, account.id, account.email.toLowerCase(), ip);
  const token = await openSession(db, account.id, ip, config.TOKEN_TTL_HOURS, origin);
  await audit(db, { actorId: account.id, action: 'auth.sign_in', entity: 'session', count: 1, details: { method: origin.method } });
  return { token, user: toUser(account), ...(!withFactor && factorRequired(config, account) ? { enrolment_required: true as const } : {}) };
}
