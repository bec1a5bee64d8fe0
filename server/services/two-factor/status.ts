import type { TwoFactorStatus } from '../../../src/api/two-factor/contract';
import type { Queryable } from '../../db/connection';
import { listPasskeys } from './passkeys';
import { factorsOf } from './policy';
import { recoveryCodesLeft } from './recovery-codes';

/** GET /api/me/2fa: the account's confirmed TOTP, passkeys and unused recovery codes. */
export async function twoFactorStatus(q: Queryable, userId: number): Promise<TwoFactorStatus> {
  const { totp } = await factorsOf(q, userId);
  return { totp, passkeys: await listPasskeys(q, userId), recovery_codes_left: await recoveryCodesLeft(q, userId) };
}
