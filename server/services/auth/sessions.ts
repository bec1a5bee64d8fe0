import { createHash, randomBytes } from 'node:crypto';
import type { Landing } from '../../../src/api/landings/contract';
import type { Queryable } from '../../db/connection';
import { AppError } from '../../errors';
import { audit } from '../audit';
import { landingFields } from '../leads/landings';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type SessionMethod = 'password' | 'sso' | 'passkey';

/** How a session was opened, as 'Mes sessions' shows it. */
export interface SessionOrigin {
  userAgent: string;
  method: SessionMethod;
}

/** Opens a session and returns its bearer token: 256 random bits, only its hash is stored. */
export async function openSession(
  db: Queryable,
  userId: number,
  ip: string,
  ttlHours: number,
  origin: SessionOrigin = { userAgent: '', method: 'password' },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, ip, user_agent, method, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [hashToken(token), userId, ip, origin.userAgent.slice(0, 500), origin.method, ttlHours * 3600],
  );
  return token;
}

export interface SessionUser {
  id: number;
  email: string;
  name: string;
  admin: boolean;
}

/**
 * The user behind a bearer token, or the 401 that says why there is none. With `landingIds` (the
 * landings a route's path names, route-params.ts), the same statement reads them, those found:
 * each statement costs the server a round trip to the database, and a lead page is then one less.
 */
export async function userForToken(
  db: Queryable,
  token: string | undefined,
  landingIds?: number[],
): Promise<{ user: SessionUser; landings: Landing[] | undefined }> {
  if (!token) throw new AppError(401, 'token_not_provided', 'Authentification requise');
  // 'Dernière activité' of 'Mes sessions', to the minute: one write per session and minute at most.
  const { rows } = await db.query<SessionUser & { expired: boolean; landings: Landing[] | null }>(
    `WITH used AS (UPDATE sessions SET last_used_at = now()
                    WHERE token_hash = $1 AND expires_at >= now() AND last_used_at < now() - interval '1 minute')
     SELECT u.id, u.email, u.name, u.admin, s.expires_at < now() AS expired,
            (SELECT json_agg(l) FROM (SELECT ${landingFields} FROM landings WHERE id = ANY($2::int[])) l) AS landings
       FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`,
    [hashToken(token), landingIds ?? null],
  );
  const row = rows[0];
  if (!row) throw new AppError(401, 'token_invalid', 'Jeton invalide, veuillez vous reconnecter');
  if (row.expired) throw new AppError(401, 'token_expired', 'Session expirée, veuillez vous reconnecter');
  const { expired: _expired, landings, ...user } = row;
  return { user, landings: landingIds ? (landings ?? []) : undefined };
}

/** Signing out: the session of this token ends, in the audit log. */
export async function closeSession(db: Queryable, userId: number, token: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE token_hash = $1', [hashToken(token)]);
  await audit(db, { actorId: userId, action: 'auth.sign_out', entity: 'session', count: 1 });
}

/** Ends every session of a user: on demotion and deletion. */
export async function closeUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
}

export async function purgeExpiredSessions(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM sessions WHERE expires_at < now()');
  return rowCount;
}
