import { createHash, randomBytes } from 'node:crypto';
import type { PasswordLinkPurpose } from '../../../src/api/users/contract';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/connection';
import { AppError } from '../../errors';
import { audit } from '../audit';
import { hit, refuseIfSpent, type RateLimit } from '../rate-limit';
import { hashPassword } from './passwords';
import { clearLoginFailures } from './throttle';

export const LINK_TTL_HOURS = 48;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

const linkInvalid = () =>
  new AppError(
    410,
    'link_invalid',
    "Ce lien n'est plus valable : il a déjà servi, a expiré ou a été remplacé. Demandez-en un nouveau avec « Mot de passe oublié ? ».",
  );

// Per address: 'Mot de passe oublié' requests, and links refused (tokens of 256 random bits
// cannot be guessed, but nobody gets to try at full speed).
const tooMany = 'Trop de demandes depuis cette adresse, réessayez dans 15 minutes';
export const forgotLimit: RateLimit = { bucket: 'password-forgot', max: 5, windowSeconds: 15 * 60, message: tooMany };
const badLinkLimit: RateLimit = { bucket: 'password-bad-link', max: 20, windowSeconds: 15 * 60, message: tooMany };
/** Reset mails per account and hour, whoever asks: nobody floods a mailbox through the form. */
const resetMails = { bucket: 'password-reset-mail', max: 3, windowSeconds: 3600 };

/** Links expired for a month are of no use, not even to explain a refusal. */
export async function purgeOldPasswordLinks(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM password_links WHERE expires_at < now() - interval '30 days'`);
}

/**
 * Issues a link for an account: 256 random bits, only their hash stored, valid 48 hours; the
 * account's previous unused links stop working. Answers the URL to mail, built from PUBLIC_URL
 * (never from a request's Host header). The token goes after '#': browsers send a fragment
 * neither to a server nor in a Referer.
 */
export async function issuePasswordLink(q: Queryable, config: Config, userId: number, purpose: PasswordLinkPurpose): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await q.query('DELETE FROM password_links WHERE user_id = $1 AND used_at IS NULL', [userId]);
  await q.query(`INSERT INTO password_links (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4))`, [
    sha256(token),
    userId,
    purpose,
    LINK_TTL_HOURS,
  ]);
  return new URL(`/password/choose#token=${token}`, publicUrl(config)).toString();
}

/** The console's public address: PUBLIC_URL, or this server on localhost for a machine of one's own. */
export const publicUrl = (config: Config) => config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;

/** Takes one of the account's reset mails of this hour: false once they are spent. */
export async function takeResetMail(q: Queryable, userId: number): Promise<boolean> {
  return (await hit(q, resetMails, String(userId))).count <= resetMails.max;
}

interface LinkRow {
  user_id: number;
  email: string;
  name: string;
  purpose: PasswordLinkPurpose;
  expires_at: string;
}

/** The account behind a usable link, or a 410 (and the refusal counted against the address). */
export async function checkPasswordLink(db: Queryable, token: string, ip: string): Promise<LinkRow> {
  await refuseIfSpent(db, badLinkLimit, ip);
  const { rows } = await db.query<LinkRow>(
    `SELECT l.user_id, u.email, u.name, l.purpose, to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS expires_at
       FROM password_links l JOIN users u ON u.id = l.user_id
      WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now()`,
    [sha256(token)],
  );
  if (!rows[0]) {
    await hit(db, badLinkLimit, ip);
    throw linkInvalid();
  }
  return rows[0];
}

/**
 * Sets the password of a link's account, once: the link is spent by a conditional UPDATE (two
 * concurrent uses cannot both succeed), the account's other links die, every session of the
 * account ends and its login failures are forgotten, in one transaction.
 */
export async function usePasswordLink(db: Db, token: string, password: string, ip: string): Promise<{ email: string }> {
  const link = await checkPasswordLink(db, token, ip);
  const hash = await hashPassword(password);
  return db.tx(async (q) => {
    const spent = await q.query(
      'UPDATE password_links SET used_at = now() WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id',
      [sha256(token)],
    );
    if (spent.rowCount === 0) throw linkInvalid();
    await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [link.user_id, hash]);
    await q.query('DELETE FROM password_links WHERE user_id = $1 AND used_at IS NULL', [link.user_id]);
    const { rowCount } = await q.query('DELETE FROM sessions WHERE user_id = $1', [link.user_id]);
    await clearLoginFailures(q, link.email.toLowerCase(), ip);
    await audit(q, {
      actorId: link.user_id,
      action: link.purpose === 'invite' ? 'users.password_chosen' : 'users.password_reset',
      entity: 'user',
      count: 1,
      details: {
        user_id: link.user_id,
        sessions_closed: rowCount,
      },
    });
    return { email: link.email };
  });
}
