import type { Db, Queryable } from '../../db/connection';
import { notFound } from '../../errors';
import { audit } from '../audit';
import { hashToken } from './sessions';

/** 'Mes sessions': the user's open sessions, newest use first; `current` is the one asking. */
export async function listSessions(db: Queryable, userId: number, token: string) {
  const { rows } = await db.query<{
    id: string;
    current: boolean;
    user_agent: string;
    address: string | null;
    created_at: Date;
    last_used_at: Date;
    method: 'password' | 'sso' | 'passkey';
  }>(
    `SELECT id::text, token_hash = $2 AS current, user_agent, ip AS address, created_at, last_used_at, method
       FROM sessions WHERE user_id = $1 AND expires_at >= now() ORDER BY last_used_at DESC, id DESC`,
    [userId, hashToken(token)],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), created_at: r.created_at.toISOString(), last_used_at: r.last_used_at.toISOString() }));
}

/** Ends one of the user's sessions (the current one too: that is signing out); another user's id is not found. */
export async function endSession(db: Db, userId: number, id: number) {
  await db.tx(async (q) => {
    const { rowCount } = await q.query('DELETE FROM sessions WHERE user_id = $1 AND id = $2', [userId, id]);
    if (!rowCount) throw notFound('Session introuvable');
    await audit(q, { actorId: userId, action: 'sessions.end', entity: 'session', count: 1, details: { session_id: id } });
  });
}

/** 'Se déconnecter partout': every session of the user but the one asking. */
export async function endOtherSessions(db: Db, userId: number, token: string): Promise<number> {
  return db.tx(async (q) => {
    const { rowCount } = await q.query('DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2', [userId, hashToken(token)]);
    await audit(q, { actorId: userId, action: 'sessions.end_others', entity: 'session', count: rowCount });
    return rowCount;
  });
}
