import { createHash, randomBytes } from 'node:crypto';
import type { PasswordLinkPurpose } from '../../../src/api/users/contract';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/connection';
import { AppError } from '../../errors';
import { audit } from '../audit';
import { hashPassword } from './passwords';
import { clearLoginFailures } from './throttle';

export const LINK_TTL_HOURS = 48;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

const linkInvalid = () =>
  new AppError(410, 'link_invalid', "Ce lien n'est plus valable : il a déjà servi, a expiré ou a été remplacé. Demandez-en un nouveau avec « Mot de passe oublié ? ».");

// Per address, within WINDOW: 'Mot de passe oublié' requests, and links refused (tokens of 256
// random bits cannot be guessed, but nobody gets to try at full speed).
const WINDOW_MINUTES = 15;
const LIMITS = { forgot: 5, bad_link: 20 } as const;
/** Reset mails per account and hour, whoever asks: nobody floods a mailbox through the form. */
const RESET_MAILS_PER_HOUR = 3;

const tooMany = () => new AppError(429, 'rate_limited', `Trop de demandes depuis cette adresse, réessayez dans ${WINDOW_MINUTES} minutes`);

export async function checkPasswordRequestAllowed(db: Queryable, kind: keyof typeof LIMITS, ip: string): Promise<void> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM password_requests WHERE ip = $1 AND kind = $2 AND at > now() - make_interval(mins => $3)`,
    [ip, kind, WINDOW_MINUTES],
  );
  if (rows[0]!.n >= LIMITS[kind]) throw tooMany();
}

export async function recordPasswordRequest(db: Queryable, kind: keyof typeof LIMITS, ip: string): Promise<void> {
  await db.query('INSERT INTO password_requests (kind, ip) VALUES ($1, $2)', [kind, ip]);
}

export async function purgeOldPasswordRequests(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM password_requests WHERE at < now() - make_interval(mins => $1)`, [WINDOW_MINUTES]);
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
  await q.query(
    `INSERT INTO password_links (token_hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4))`,
    [sha256(token), userId, purpose, LINK_TTL_HOURS],
  );
  return new URL(`/password/choose#token=${token}`, publicUrl(config)).toString();
}

/** The console's public address: PUBLIC_URL, or this server on localhost for a machine of one's own. */
export const publicUrl = (config: Config) => config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;

/** Whether a reset mail may go to this account now (at most RESET_MAILS_PER_HOUR). */
export async function resetMailAllowed(q: Queryable, userId: number): Promise<boolean> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM audit_log WHERE action = 'users.reset_link' AND (details->>'user_id')::int = $1 AND at > now() - interval '1 hour'`,
    [userId],
  );
  return rows[0]!.n < RESET_MAILS_PER_HOUR;
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
  await checkPasswordRequestAllowed(db, 'bad_link', ip);
  const { rows } = await db.query<LinkRow>(
    `SELECT l.user_id, u.email, u.name, l.purpose, to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS expires_at
       FROM password_links l JOIN users u ON u.id = l.user_id
      WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now()`,
    [sha256(token)],
  );
  if (!rows[0]) {
    await recordPasswordRequest(db, 'bad_link', ip);
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
    await audit(q, link.user_id, link.purpose === 'invite' ? 'users.password_chosen' : 'users.password_reset', 'user', 1, {
      user_id: link.user_id,
      sessions_closed: rowCount,
    });
    return { email: link.email };
  });
}
