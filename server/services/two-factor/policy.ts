import type { Config } from '../../config';
import type { Queryable } from '../../db/connection';
import { AppError } from '../../errors';
import type { SessionUser } from '../auth/sessions';

/** Whether REQUIRE_2FA asks this account for a second factor. */
export const factorRequired = (config: Config, user: { admin: boolean }) => config.REQUIRE_2FA === 'all' || (config.REQUIRE_2FA === 'admins' && user.admin);

/** The account's confirmed factors. */
export async function factorsOf(q: Queryable, userId: number): Promise<{ totp: boolean; passkeys: number }> {
  const { rows } = await q.query<{ totp: boolean; passkeys: number }>(
    `SELECT EXISTS (SELECT 1 FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL) AS totp,
            (SELECT count(*)::int FROM passkeys WHERE user_id = $1) AS passkeys`,
    [userId],
  );
  return rows[0]!;
}

export const hasFactor = (f: { totp: boolean; passkeys: number }) => f.totp || f.passkeys > 0;

/**
 * Run by the auth plugin on every signed-in route but the enrolment's: an account that REQUIRE_2FA
 * asks for a factor and that has none reaches nothing else (a factor removed later, or the
 * setting turned on after the sign-in, counts from the next request). No query when the setting
 * does not concern the account.
 */
export async function refuseWithoutFactor(q: Queryable, config: Config, user: SessionUser): Promise<void> {
  if (!factorRequired(config, user) || hasFactor(await factorsOf(q, user.id))) return;
  throw new AppError(403, 'enrolment_required', "Activez la double authentification (application ou clé d'accès) pour continuer");
}
