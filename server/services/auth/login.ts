import type { Queryable } from '../../db/connection';
import { AppError } from '../../errors';
import { audit } from '../audit';
import { findByEmail, toUser } from '../users';
import { decoyHash, verifyPassword } from './passwords';
import { openSession } from './sessions';
import { checkLoginAllowed, recordLoginFailure, recordLoginSuccess } from './throttle';

const refused = () => new AppError(401, 'invalid_credentials', 'Identification impossible');

/**
 * Signs in by email and password. Unknown emails and wrong passwords answer alike, after the
 * same scrypt work, so neither the message, the status nor the timing tells them apart.
 */
export async function login(db: Queryable, login: string, password: string, ip: string, userAgent: string, ttlHours: number) {
  await checkLoginAllowed(db, login, ip);
  const account = await findByEmail(db, login);
  const ok = await verifyPassword(password, account?.password_hash ?? (await decoyHash));
  if (!account || !ok) {
    await recordLoginFailure(db, login, ip);
    await audit(db, { actorId: null, action: 'auth.sign_in_failed', entity: 'session', count: 1, details: { login: login.slice(0, 254), method: 'password' } });
    throw refused();
  }
  await recordLoginSuccess(db, account.id, login, ip);
  const token = await openSession(db, account.id, ip, ttlHours, { userAgent, method: 'password' });
  await audit(db, { actorId: account.id, action: 'auth.sign_in', entity: 'session', count: 1, details: { method: 'password' } });
  return { token, user: toUser(account) };
}
