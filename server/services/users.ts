import type { Db, Queryable } from '../db/connection';
import { conflict, notFound } from '../errors';
import type { User } from '../../src/api/auth/contract';
import { hashPassword, randomPassword } from './auth/passwords';
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
  const { rows } = await db.query<UserRow & { password_hash: string }>(
    'SELECT id, email, name, admin, password_hash FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  return rows[0];
}

export async function listUsers(db: Queryable): Promise<User[]> {
  const { rows } = await db.query<UserRow>('SELECT id, email, name, admin FROM users ORDER BY name, id');
  return rows.map(toUser);
}

export async function createUser(
  db: Queryable,
  input: { name: string; email: string; password?: string; admin?: boolean },
): Promise<{ user: User; password: string }> {
  if (await findByEmail(db, input.email)) throw conflict('Un compte existe déjà avec cette adresse email');
  const password = input.password ?? randomPassword();
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users (email, name, password_hash, admin) VALUES ($1, $2, $3, $4)
     RETURNING id, email, name, admin`,
    [input.email, input.name, await hashPassword(password), input.admin ?? false],
  );
  return { user: toUser(rows[0]!), password };
}

/** Makes sure an admin with this email and password exists (ADMIN_EMAIL / ADMIN_PASSWORD). */
export async function ensureAdmin(db: Queryable, email: string, password: string): Promise<void> {
  const hash = await hashPassword(password);
  await db.query(
    `INSERT INTO users (email, name, password_hash, admin) VALUES ($1, 'Administrateur', $2, true)
     ON CONFLICT (lower(email)) DO UPDATE SET password_hash = EXCLUDED.password_hash, admin = true`,
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
    const { rows } = await q.query<UserRow>(
      'UPDATE users SET admin = NOT admin WHERE id = $1 RETURNING id, email, name, admin',
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
    const { rows } = await q.query<UserRow>('DELETE FROM users WHERE id = $1 RETURNING id, email, name, admin', [id]);
    const row = rows[0];
    if (!row) throw notFound(userNotFound);
    await auditUser(q, actorId, 'users.delete', id);
    return toUser(row);
  });
}

const auditUser = (q: Queryable, actorId: number, action: string, userId: number) => audit(q, actorId, action, 'user', 1, { user_id: userId });
