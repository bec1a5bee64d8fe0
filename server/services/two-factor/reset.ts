import type { Db } from '../../db/connection';
import { conflict, notFound } from '../../errors';
import { audit } from '../audit';
import { closeUserSessions } from '../auth/sessions';
import { userNotFound } from '../users';
import { factorsOf } from './policy';

/**
 * An admin removes every factor of another account (a lost phone and keys): its TOTP, recovery
 * codes and passkeys go, its sessions end, and the audit log keeps who did it.
 */
export async function resetFactors(db: Db, adminId: number, userId: number): Promise<void> {
  if (adminId === userId) throw conflict('Vos propres facteurs se gèrent depuis « Double authentification » du menu de votre compte');
  await db.tx(async (q) => {
    const { rows } = await q.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    if (!rows[0]) throw notFound(userNotFound);
    const before = await factorsOf(q, userId);
    await q.query('DELETE FROM totp_factors WHERE user_id = $1', [userId]);
    await q.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    await q.query('DELETE FROM passkeys WHERE user_id = $1', [userId]);
    await q.query('DELETE FROM webauthn_challenges WHERE user_id = $1', [userId]);
    const { rows: sessions } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [userId]);
    await closeUserSessions(q, userId);
    await audit(q, {
      actorId: adminId,
      action: 'users.2fa.reset',
      entity: 'user',
      count: 1,
      details: { user_id: userId, totp: before.totp, passkeys: before.passkeys, sessions_closed: sessions[0]!.n },
    });
  });
}
