import { frenchOrder } from '../db/french-order';
import type { Db, Queryable } from '../db/connection';
import { conflict, forbidden, notFound } from '../errors';
import type { User } from '../../src/api/auth/contract';
import type { Account } from '../../src/api/users/contract';
import { hashPassword } from './auth/passwords';
import { closeUserSessions } from './auth/sessions';
import { audit } from './audit';

export const userNotFound = 'Utilisateur introuvable';

interface UserRow {
  id: number;
  email: string;
  name: string;
  admin: boolean;
}

export const toUser = (u: UserRow): User => ({
  id: u.id,
  email: u.email,
  name: u.name,
  admin: u.admin,
  role: u.admin ? 'admin' : 'normal',
});

export async function findByEmail(db: Queryable, email: string) {
  const { rows } = await db.query<UserRow & { password_hash: string | null }>(
    'SELECT id, email, name, admin, password_hash FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  return rows[0];
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** Accounts with, for those without a password yet, their latest invitation's deadline. */
export async function listUsers(db: Queryable, id?: number): Promise<Account[]> {
  const { rows } = await db.query<UserRow & { created_at: string; invited: boolean; expires_at: string | null; expired: boolean | null }>(
    `SELECT u.id, u.email, u.name, u.admin, ${iso('u.created_at')} AS created_at, u.password_hash IS NULL AS invited,
            ${iso('inv.expires_at')} AS expires_at, inv.expires_at <= now() AS expired
       FROM users u
       LEFT JOIN LATERAL (SELECT expires_at FROM password_links l WHERE l.user_id = u.id AND l.purpose = 'invite'
                           ORDER BY created_at DESC LIMIT 1) inv ON u.password_hash IS NULL
      WHERE $1::int IS NULL OR u.id = $1
      ORDER BY ${frenchOrder('u.name')}, u.id`,
    [id ?? null],
  );
  return rows.map((r) => ({
    ...toUser(r),
    created_at: r.created_at,
    // No password is an invitation from the account's creation on, before the mail job has made its link (no deadline yet).
    invitation: r.invited ? { expires_at: r.expires_at, expired: r.expired === true } : null,
  }));
}

/** Creates an account; without `password` it has none until its holder chooses one from an invitation. */
export async function createUser(db: Queryable, input: { name: string; email: string; password?: string; admin?: boolean }): Promise<User> {
  const taken = () => conflict('Un compte existe déjà avec cette adresse email');
  if (await findByEmail(db, input.email)) throw taken();
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  // ON CONFLICT: the same address registered twice at the same moment answers 409, not a unique violation.
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users (email, name, password_hash, admin) VALUES ($1, $2, $3, $4)
     ON CONFLICT (lower(email)) DO NOTHING RETURNING id, email, name, admin`,
    [input.email, input.name, hash, input.admin ?? false],
  );
  if (!rows[0]) throw taken();
  return toUser(rows[0]);
}

/** Makes sure an admin with this email and password exists (ADMIN_EMAIL / ADMIN_PASSWORD). */
export async function ensureAdmin(db: Queryable, email: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await db.query(
    `INSERT INTO users (email, name, password_hash, admin) VALUES ($1, 'Administrateur', $2, true)
     ON CONFLICT (lower(email)) DO UPDATE SET password_hash = EXCLUDED.password_hash, admin = true,
       admin_since = CASE WHEN users.admin THEN users.admin_since ELSE now() END`,
    [email.toLowerCase(), hash],
  );
}

/**
 * Flips the admin flag; a demoted account loses its sessions at once. Nobody demotes themself,
 * so the console always keeps the admin who is acting.
 */
export async function toggleAdmin(db: Db, id: number, actorId: number): Promise<User> {
  if (id === actorId) throw conflict('Vous ne pouvez pas retirer votre propre rôle administrateur');
  return db.tx(async (q) => {
    await lockActorAndTarget(q, actorId, id);
    const { rows } = await q.query<UserRow>(
      'UPDATE users SET admin = NOT admin, admin_since = CASE WHEN admin THEN admin_since ELSE now() END WHERE id = $1 RETURNING id, email, name, admin',
      [id],
    );
    const row = rows[0];
    if (!row) throw notFound(userNotFound);
    if (!row.admin) await closeUserSessions(q, id);
    await auditUser(q, actorId, row.admin ? 'users.promote' : 'users.demote', id);
    return toUser(row);
  });
}

/** Deleting an account ends its sessions through the foreign key's cascade; nobody deletes themself. */
export async function deleteUser(db: Db, id: number, actorId: number): Promise<User> {
  if (id === actorId) throw conflict('Vous ne pouvez pas supprimer votre propre compte');
  return db.tx(async (q) => {
    await lockActorAndTarget(q, actorId, id);
    const { rows } = await q.query<UserRow>('DELETE FROM users WHERE id = $1 RETURNING id, email, name, admin', [id]);
    const row = rows[0];
    if (!row) throw notFound(userNotFound);
    await auditUser(q, actorId, 'users.delete', id);
    return toUser(row);
  });
}

/**
 * Locks both accounts in id order and checks the actor is still an admin: two admins demoting or
 * deleting each other at the same moment would otherwise both pass the sign-in time check and
 * leave the console without an admin. The second one now waits, then is refused.
 */
async function lockActorAndTarget(q: Queryable, actorId: number, id: number): Promise<void> {
  const { rows } = await q.query<{ id: number; admin: boolean }>('SELECT id, admin FROM users WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [
    [actorId, id],
  ]);
  if (!rows.find((r) => r.id === actorId)?.admin) throw forbidden();
}

const auditUser = (q: Queryable, actorId: number, action: 'users.promote' | 'users.demote' | 'users.delete', userId: number) =>
  audit(q, { actorId, action, entity: 'user', count: 1, details: { user_id: userId } });
