import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, deleteUser, toggleAdmin } from '../../server/services/users';
import { ADMIN, startServer, type TestServer } from './harness';

let server: TestServer;
let adminToken: string;
let adminId: number;

beforeAll(async () => {
  server = await startServer();
  adminToken = await server.login(ADMIN.email, ADMIN.password);
  adminId = ((await (await server.request('GET', '/api/me', { token: adminToken })).json()) as { data: { id: number } }).data.id;
});
afterAll(() => server.close());

/** A fresh account and a signed-in token for it. */
async function account(email: string, admin = false) {
  const user = await createUser(server.ctx.db, { name: `Compte ${email}`, email, password: 'password-123', admin });
  return { user, token: await server.login(email, 'password-123') };
}

const me = (token: string) => server.request('GET', '/api/me', { token });

describe('GET /api/users', () => {
  it('lists every account for an admin', async () => {
    await account('liste@test.local');
    const res = await server.request('GET', '/api/users', { token: adminToken });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Array<{ email: string; role: string }> };
    expect(data).toEqual(
      expect.arrayContaining([
        { id: adminId, email: ADMIN.email, name: 'Administrateur', admin: true, role: 'admin', created_at: expect.any(String), invitation: null },
        expect.objectContaining({ email: 'liste@test.local', admin: false, role: 'normal' }),
      ]),
    );
  });

  it('refuses a normal user with 403 on every admin route', async () => {
    const { token, user } = await account('normal@test.local');
    for (const [method, path] of [
      ['GET', '/api/users'],
      ['POST', `/api/users/admin/${user.id}`],
      ['DELETE', `/api/users/${adminId}`],
    ] as const) {
      const res = await server.request(method, path, { token });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ error: 'forbidden', message: 'Accès réservé aux administrateurs' });
    }
    // Nothing moved: still normal, the admin still there.
    const { rows } = await server.ctx.db.query<{ admin: boolean }>('SELECT admin FROM users WHERE id = $1', [user.id]);
    expect(rows[0]!.admin).toBe(false);
    expect((await me(adminToken)).status).toBe(200);
  });

  it('asks for a token first', async () => {
    const res = await server.request('GET', '/api/users');
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('token_not_provided');
  });
});

describe('POST /api/users/admin/:id', () => {
  it('promotes, then demotes, and a demoted user’s tokens end at once', async () => {
    const { user, token } = await account('role@test.local');
    const up = await server.request('POST', `/api/users/admin/${user.id}`, { token: adminToken });
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ data: { ...user, admin: true, role: 'admin' }, message: 'Rôle modifié' });
    // Promotion keeps the session, which now reaches admin routes.
    expect((await server.request('GET', '/api/users', { token })).status).toBe(200);

    const down = await server.request('POST', `/api/users/admin/${user.id}`, { token: adminToken });
    expect(await down.json()).toEqual({ data: { ...user, admin: false, role: 'normal' }, message: 'Rôle modifié' });
    const after = await me(token);
    expect(after.status).toBe(401);
    expect((await after.json()).error).toBe('token_invalid');

    const { rows } = await server.ctx.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity = 'user' AND (details->>'user_id')::int = $1 ORDER BY id`,
      [user.id],
    );
    expect(rows.map((r) => r.action)).toEqual(['users.promote', 'users.demote']);
  });

  it('refuses an actor demoted meanwhile: two admins demoting or deleting each other leave one admin', async () => {
    // The sign-in check of both requests passed before either change: the service checks again under a lock.
    const a = (await account('duel-a@test.local', true)).user;
    const b = (await account('duel-b@test.local', true)).user;
    await toggleAdmin(server.ctx.db, b.id, a.id);
    await expect(toggleAdmin(server.ctx.db, a.id, b.id)).rejects.toMatchObject({ status: 403 });
    await expect(deleteUser(server.ctx.db, a.id, b.id)).rejects.toMatchObject({ status: 403 });
    const { rows } = await server.ctx.db.query<{ id: number; admin: boolean }>('SELECT id, admin FROM users WHERE id = ANY($1::int[]) ORDER BY id', [
      [a.id, b.id],
    ]);
    expect(rows).toEqual([
      { id: a.id, admin: true },
      { id: b.id, admin: false },
    ]);
  });

  it('refuses demoting yourself, so the console keeps its admin', async () => {
    const res = await server.request('POST', `/api/users/admin/${adminId}`, { token: adminToken });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'conflict', message: 'Vous ne pouvez pas retirer votre propre rôle administrateur' });
    expect(((await (await me(adminToken)).json()) as { data: { admin: boolean } }).data.admin).toBe(true);
  });

  it('answers 404 for an unknown account and for an id that is not one', async () => {
    const unknown = await server.request('POST', '/api/users/admin/999999', { token: adminToken });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'not_found', message: 'Utilisateur introuvable' });
    for (const bad of ['abc', '-1', '0', '1.5', '99999999999']) {
      const res = await server.request('POST', `/api/users/admin/${bad}`, { token: adminToken });
      expect(res.status, bad).toBe(404);
      expect(await res.json()).toEqual({ error: 'not_found', message: 'Utilisateur introuvable' });
    }
  });
});

describe('DELETE /api/users/:id', () => {
  it('deletes the account and ends its tokens', async () => {
    const { user, token } = await account('delete@test.local');
    const res = await server.request('DELETE', `/api/users/${user.id}`, { token: adminToken });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: user, message: 'Utilisateur supprimé' });
    expect((await (await me(token)).json()).error).toBe('token_invalid');
    const { rows } = await server.ctx.db.query('SELECT 1 FROM sessions WHERE user_id = $1', [user.id]);
    expect(rows).toHaveLength(0);
    const list = (await (await server.request('GET', '/api/users', { token: adminToken })).json()) as { data: Array<{ id: number }> };
    expect(list.data.map((u) => u.id)).not.toContain(user.id);
    const again = await server.request('DELETE', `/api/users/${user.id}`, { token: adminToken });
    expect(again.status).toBe(404);
  });

  it('refuses deleting yourself', async () => {
    const res = await server.request('DELETE', `/api/users/${adminId}`, { token: adminToken });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: 'conflict', message: 'Vous ne pouvez pas supprimer votre propre compte' });
    expect((await me(adminToken)).status).toBe(200);
  });
});
