import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { TotpEnrolment } from '../../../src/api/two-factor/contract';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/connection';
import { AppError, conflict, validationFailed } from '../../errors';
import { audit } from '../audit';
import type { SessionUser } from '../auth/sessions';
import { hit, refuseIfSpent, type RateLimit } from '../rate-limit';
import { issueRecoveryCodes, spendRecoveryCode } from './recovery-codes';
import { seal, unseal } from './secret-box';

const PERIOD = 30;
const ISSUER = 'Console leads';

const totpOf = (secret: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** Codes refused to a signed-in account (confirming or removing its TOTP): 6 digits are guessed, not here. */
const codeGuesses: RateLimit = {
  bucket: 'two-factor-code',
  max: 5,
  windowSeconds: 15 * 60,
  message: 'Trop de codes incorrects, réessayez dans 15 minutes',
};

const wrongCode = () => validationFailed({ code: 'Code incorrect ou expiré' }, 'Code incorrect ou expiré');

/** The 30 s step a 6-digit code belongs to, within one step of now either way; null if it matches none. */
function matchingStep(secret: string, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = Date.now();
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/**
 * Takes a step for the account: only a step later than the last one taken, in one conditional
 * UPDATE, so a code (and any older one) works once per account, even when two requests race.
 */
async function takeStep(q: Queryable, userId: number, step: number, confirm: boolean): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE totp_factors SET last_step = $2, confirmed_at = CASE WHEN $3 THEN now() ELSE confirmed_at END
      WHERE user_id = $1 AND (confirmed_at IS NULL) = $3 AND (last_step IS NULL OR last_step < $2)`,
    [userId, step, confirm],
  );
  return rowCount === 1;
}

async function secretOf(q: Queryable, config: Config, userId: number, confirmed: boolean): Promise<string | undefined> {
  const { rows } = await q.query<{ secret: string }>('SELECT secret FROM totp_factors WHERE user_id = $1 AND (confirmed_at IS NOT NULL) = $2', [
    userId,
    confirmed,
  ]);
  return rows[0] && unseal(config, rows[0].secret);
}

/**
 * Checks a second-factor code of a confirmed TOTP: the app's 6 digits (±1 step, once) or one of
 * the recovery codes (once). `code` is normalised (factorCode: no spaces or dashes, upper case).
 */
export async function spendFactorCode(q: Queryable, config: Config, userId: number, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return spendRecoveryCode(q, userId, code);
  const secret = await secretOf(q, config, userId, true);
  const step = secret === undefined ? null : matchingStep(secret, code);
  return step !== null && takeStep(q, userId, step, false);
}

/** Begins an enrolment (again): a new secret, pending until a code confirms it. */
export async function beginTotp(db: Db, config: Config, user: SessionUser): Promise<TotpEnrolment> {
  const secret = new Secret({ size: 20 }).base32;
  const { rowCount } = await db.query(
    `INSERT INTO totp_factors (user_id, secret) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = NULL, created_at = now() WHERE totp_factors.confirmed_at IS NULL`,
    [user.id, seal(config, secret)],
  );
  if (rowCount === 0) throw conflict("La double authentification par application est déjà active : retirez-la d'abord pour en changer");
  const otpauthUrl = totpOf(secret, user.email).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauth_url: otpauthUrl, qr_svg: qrSvg };
}

/** Confirms the pending secret with a code; answers the ten recovery codes, shown this once. */
export async function confirmTotp(db: Db, config: Config, user: SessionUser, code: string): Promise<string[]> {
  const key = String(user.id);
  await refuseIfSpent(db, codeGuesses, key);
  const codes = await db.tx(async (q) => {
    const secret = await secretOf(q, config, user.id, false);
    if (secret === undefined) throw conflict("Aucune activation en cours : commencez par « Activer l'application d'authentification »");
    const step = matchingStep(secret, code);
    if (step === null || !(await takeStep(q, user.id, step, true))) return null;
    await audit(q, { actorId: user.id, action: 'users.2fa.totp_enabled', entity: 'user', count: 1, details: { user_id: user.id } });
    return issueRecoveryCodes(q, user.id);
  });
  return codes ?? refuseCode(db, key);
}

/** Counts a wrong code against the account (outside the refused transaction, so that it stays), then refuses. */
async function refuseCode(db: Db, key: string): Promise<never> {
  await hit(db, codeGuesses, key);
  throw wrongCode();
}

/** Removes the TOTP and its recovery codes, on a code of it (or a recovery code). */
export async function removeTotp(db: Db, config: Config, user: SessionUser, code: string): Promise<void> {
  const key = String(user.id);
  await refuseIfSpent(db, codeGuesses, key);
  const removed = await db.tx(async (q) => {
    const { rows } = await q.query('SELECT 1 FROM totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL FOR UPDATE', [user.id]);
    if (!rows[0]) throw new AppError(404, 'not_found', "La double authentification par application n'est pas active");
    if (!(await spendFactorCode(q, config, user.id, code))) return false;
    await q.query('DELETE FROM totp_factors WHERE user_id = $1', [user.id]);
    await q.query('DELETE FROM recovery_codes WHERE user_id = $1', [user.id]);
    await audit(q, { actorId: user.id, action: 'users.2fa.totp_removed', entity: 'user', count: 1, details: { user_id: user.id } });
    return true;
  });
  if (!removed) await refuseCode(db, key);
}
