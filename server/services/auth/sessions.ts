import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/connection';
import { AppError } from '../../errors';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Opens a session and returns its bearer token: 256 random bits, only its hash is stored. */
export async function openSession(db: Queryable, userId: number, ip: string, ttlHours: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(`INSERT INTO sessions (token_hash, user_id, ip, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))`, [
    hashToken(token),
    userId,
    ip,
    ttlHours * 3600,
  ]);
  return token;
}

export interface SessionUser {
  id: number;
  email: string;
  name: string;
  admin: boolean;
}

/** The user behind a bearer token, or the 401 that says why there is none. */
export async function userForToken(db: Queryable, token: string | undefined): Promise<SessionUser> {
  if (!token) throw new AppError(401, 'token_not_provided', 'Authentification requise');
  const { rows } = await db.query<SessionUser & { expired: boolean }>(
    `SELECT u.id, u.email, u.name, u.admin, s.expires_at < now() AS expired
       FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`,
    [hashToken(token)],
  );
  const row = rows[0];
  if (!row) throw new AppError(401, 'token_invalid', 'Jeton invalide, veuillez vous reconnecter');
  if (row.expired) throw new AppError(401, 'token_expired', 'Session expirée, veuillez vous reconnecter');
  const { expired: _expired, ...user } = row;
  return user;
}

export async function closeSession(db: Queryable, token: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [hashToken(token)]);
}

/** Ends every session of a user: on demotion and deletion. */
export async function closeUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
}

export async function purgeExpiredSessions(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM sessions WHERE expires_at < now()');
  return rowCount;
}
