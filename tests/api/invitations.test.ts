import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/services/users';
import { ADMIN, startServer, type TestServer } from './harness';
import { until } from '../support/until';
import { mailedLink, startSmtp } from './smtp';

const PUBLIC_URL = 'https://console.example.test';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let adminToken: string;

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ SMTP_URL: smtp.url, PUBLIC_URL });
  adminToken = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const post = (path: string, body: unknown, opts: { token?: string; ip?: string } = {}) =>
  server.request('POST', path, { body, token: opts.token, headers: opts.ip ? { 'x-forwarded-for': opts.ip } : {} });
const signIn = (email: string, password: string) => server.request('POST', '/api/auth', { body: { email, password } });
const me = (token: string) => server.request('GET', '/api/me', { token });
const GOOD = 'un mot de passe très long';
/**
 * Resolves once the `count` password mail jobs queued for `email` ('Mot de passe oublié ?') have
 * all run: the mails they owed are sent by then, so a count read after it is final.
 */
const resetJobsRun = (email: string, count: number) =>
  until(
    async () =>
      (
        await server.ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail.password-link' AND data->>'email' = $1 AND state = 'completed'`,
          [email],
        )
      ).rows[0]!.n === count,
    10_000,
    `the password mail jobs of ${email}`,
  );

describe('account by invitation', () => {
  it('creates the account without a password and mails a PUBLIC_URL link (never the Host header) that sets it once', async () => {
    const res = await server.request('POST', '/api/auth/register', {
      token: adminToken,
      body: { name: '  Lucie Fabre ', email: 'Lucie.Fabre@Test.local' },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      data: { id: expect.any(Number), email: 'lucie.fabre@test.local', name: 'Lucie Fabre', admin: false, role: 'normal' },
      message: 'Compte créé, un email a été envoyé au client',
    });

    const mail = await smtp.waitFor('lucie.fabre@test.local');
    expect(mail.text).toContain('Subject: Votre compte sur la console des leads');
    expect(mail.text).toContain('Bonjour Lucie Fabre,');
    expect(mail.text).not.toMatch(/mot de passe provisoire/i);
    const { url, token } = mailedLink(mail);
    expect(url.startsWith(`${PUBLIC_URL}/password/choose#token=`)).toBe(true);
    expect(mail.text).not.toContain('evil.example');

    // Only the token's hash is stored; the job table holds no secret either.
    const stored = await server.ctx.db.query<{ token_hash: string; purpose: string; hours: number }>(
      `SELECT token_hash, purpose, round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours FROM password_links`,
    );
    expect(stored.rows).toEqual([{ token_hash: expect.stringMatching(/^[0-9a-f]{64}$/), purpose: 'invite', hours: 48 }]);
    const jobs = await server.ctx.db.query<{ data: string }>(`SELECT data::text FROM pgboss.job WHERE name = 'mail.password-link'`);
    expect(jobs.rows.some((j) => j.data.includes(token))).toBe(false);

    // Listed as invited; no password signs in yet.
    const list = (await (await server.request('GET', '/api/users', { token: adminToken })).json()) as { data: Array<{ email: string; invitation: unknown }> };
    expect(list.data.find((u) => u.email === 'lucie.fabre@test.local')!.invitation).toEqual({ expires_at: expect.any(String), expired: false });
    expect((await signIn('lucie.fabre@test.local', '')).status).toBe(422);
    expect((await signIn('lucie.fabre@test.local', GOOD)).status).toBe(401);

    const check = await post('/api/auth/password/check', { token });
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ data: { email: 'lucie.fabre@test.local', name: 'Lucie Fabre', purpose: 'invite', expires_at: expect.any(String) } });

    const short = await post('/api/auth/password/reset', { token, password: 'court' });
    expect(short.status).toBe(422);
    expect(await short.json()).toMatchObject({ error: 'validation_failed', errors: { password: 'Le mot de passe doit contenir au moins 12 caractères' } });

    const set = await post('/api/auth/password/reset', { token, password: GOOD });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ data: { email: 'lucie.fabre@test.local' }, message: 'Mot de passe enregistré, vous pouvez vous connecter' });
    const session = await server.login('lucie.fabre@test.local', GOOD);
    expect(((await (await me(session)).json()) as { data: { name: string } }).data.name).toBe('Lucie Fabre');

    // Single use.
    const again = await post('/api/auth/password/reset', { token, password: 'un autre mot de passe' });
    expect(again.status).toBe(410);
    expect((await again.json()).error).toBe('link_invalid');
    const after = (await (await server.request('GET', '/api/users', { token: adminToken })).json()) as { data: Array<{ email: string; invitation: unknown }> };
    expect(after.data.find((u) => u.email === 'lucie.fabre@test.local')!.invitation).toBeNull();
  });

  it('sends a new invitation on request, which replaces the first; refuses it once the password is chosen', async () => {
    const res = await server.request('POST', '/api/auth/register', { token: adminToken, body: { name: 'Paul', email: 'paul@test.local' } });
    const { id } = ((await res.json()) as { data: { id: number } }).data;
    const first = mailedLink(await smtp.waitFor('paul@test.local'));

    const resend = await server.request('POST', `/api/users/${id}/invite`, { token: adminToken });
    expect(resend.status).toBe(200);
    expect(await resend.json()).toMatchObject({ data: { id, email: 'paul@test.local', invitation: expect.anything() }, message: 'Invitation envoyée' });
    const second = mailedLink(await smtp.waitFor('paul@test.local', 1));
    expect(second.token).not.toBe(first.token);

    expect((await post('/api/auth/password/check', { token: first.token })).status).toBe(410);
    expect((await post('/api/auth/password/reset', { token: second.token, password: GOOD })).status).toBe(200);
    const late = await server.request('POST', `/api/users/${id}/invite`, { token: adminToken });
    expect(late.status).toBe(409);
    expect((await late.json()).message).toContain('Mot de passe oublié');
    expect((await server.request('POST', '/api/users/999999/invite', { token: adminToken })).status).toBe(404);
    expect((await server.request('POST', '/api/users/abc/invite', { token: adminToken })).status).toBe(404);
  });

  it('refuses an expired link', async () => {
    const res = await server.request('POST', '/api/auth/register', { token: adminToken, body: { name: 'Tardif', email: 'tardif@test.local' } });
    expect(res.status).toBe(201);
    const { token } = mailedLink(await smtp.waitFor('tardif@test.local'));
    await server.ctx.db.query(`UPDATE password_links SET expires_at = now() - interval '1 second' WHERE purpose = 'invite' AND used_at IS NULL`);
    const set = await post('/api/auth/password/reset', { token, password: GOOD });
    expect(set.status).toBe(410);
    expect((await set.json()).message).toContain("Ce lien n'est plus valable");
    const list = (await (await server.request('GET', '/api/users', { token: adminToken })).json()) as { data: Array<{ email: string; invitation: unknown }> };
    expect(list.data.find((u) => u.email === 'tardif@test.local')!.invitation).toEqual({ expires_at: expect.any(String), expired: true });
  });

  it('lists an account without a password as invited before the mail job has made its link', async () => {
    // As the account is between its creation and the job: no password, no link yet.
    const { id } = await createUser(server.ctx.db, { name: 'En attente', email: 'attente@test.local' });
    const list = (await (await server.request('GET', '/api/users', { token: adminToken })).json()) as { data: Array<{ id: number; invitation: unknown }> };
    expect(list.data.find((u) => u.id === id)!.invitation).toEqual({ expires_at: null, expired: false });
  });

  it('refuses a normal user with 403 on register and invite, and creates nothing', async () => {
    const user = await createUser(server.ctx.db, { name: 'Équipe', email: 'equipe@test.local', password: 'password-123' });
    const token = await server.login('equipe@test.local', 'password-123');
    const reg = await server.request('POST', '/api/auth/register', { token, body: { name: 'Intrus', email: 'intrus@test.local' } });
    expect(reg.status).toBe(403);
    expect((await server.request('POST', `/api/users/${user.id}/invite`, { token })).status).toBe(403);
    expect((await server.ctx.db.query(`SELECT 1 FROM users WHERE email = 'intrus@test.local'`)).rows).toHaveLength(0);
  });
});

describe('Mot de passe oublié', () => {
  it('answers alike for a known and an unknown address, mails the known one a link that ends every session', async () => {
    await createUser(server.ctx.db, { name: 'Oubli', email: 'oubli@test.local', password: 'ancien-mot-de-passe' });
    const before = await server.login('oubli@test.local', 'ancien-mot-de-passe');

    const times: Record<string, number> = {};
    const bodies: Record<string, unknown> = {};
    for (const email of ['oubli@test.local', 'personne@test.local']) {
      const started = performance.now();
      const res = await post('/api/auth/password/forgot', { email }, { ip: '10.9.0.1' });
      times[email] = performance.now() - started;
      expect(res.status).toBe(200);
      bodies[email] = await res.json();
    }
    expect(bodies['oubli@test.local']).toEqual({ data: true, message: 'Si un compte correspond à cette adresse, un email vient de lui être envoyé' });
    expect(bodies['personne@test.local']).toEqual(bodies['oubli@test.local']);
    // The same work on both paths (one row and one queued job); the lookup happens in the job.
    expect(Math.abs(times['oubli@test.local']! - times['personne@test.local']!)).toBeLessThan(250);

    const mail = await smtp.waitFor('oubli@test.local');
    expect(mail.text).toContain('Subject: Nouveau mot de passe pour la console des leads');
    const { token } = mailedLink(mail);
    expect(((await (await post('/api/auth/password/check', { token })).json()) as { data: { purpose: string } }).data.purpose).toBe('reset');
    // The old password still works until the link is used.
    expect((await signIn('oubli@test.local', 'ancien-mot-de-passe')).status).toBe(200);

    expect((await post('/api/auth/password/reset', { token, password: GOOD })).status).toBe(200);
    expect((await me(before)).status).toBe(401);
    expect((await signIn('oubli@test.local', 'ancien-mot-de-passe')).status).toBe(401);
    expect((await signIn('oubli@test.local', GOOD)).status).toBe(200);
    await resetJobsRun('personne@test.local', 1);
    expect(smtp.mails.filter((m) => m.to.includes('personne@test.local'))).toHaveLength(0);
  });

  it('is limited per address (429), and mails one account at most 3 links an hour', async () => {
    await createUser(server.ctx.db, { name: 'Cible', email: 'cible@test.local', password: 'password-123' });
    for (let i = 0; i < 5; i++) expect((await post('/api/auth/password/forgot', { email: 'cible@test.local' }, { ip: '10.9.1.1' })).status).toBe(200);
    const limited = await post('/api/auth/password/forgot', { email: 'cible@test.local' }, { ip: '10.9.1.1' });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toBe('rate_limited');
    await resetJobsRun('cible@test.local', 5);
    expect(smtp.mails.filter((m) => m.to.includes('cible@test.local'))).toHaveLength(3);
  });

  it('limits refused links per address', async () => {
    const fake = 'A'.repeat(43);
    for (let i = 0; i < 20; i++) expect((await post('/api/auth/password/check', { token: fake }, { ip: '10.9.2.1' })).status).toBe(410);
    expect((await post('/api/auth/password/check', { token: fake }, { ip: '10.9.2.1' })).status).toBe(429);
    expect((await post('/api/auth/password/check', { token: fake }, { ip: '10.9.2.2' })).status).toBe(410);
  });

  it('answers bad bodies with 422 or 400, never a 500', async () => {
    for (const body of [{}, { token: 'court' }, { token: 42 }, { token: ['x'] }, null, 'texte', { token: 'A'.repeat(43), password: 7 }]) {
      const res = await post('/api/auth/password/reset', body, { ip: '10.9.3.1' });
      expect([400, 422], JSON.stringify(body)).toContain(res.status);
      expect((await res.json()).message).toEqual(expect.any(String));
    }
    for (const body of [{}, { email: 'pas-un-email' }, { email: 12 }, { email: 'a@b.fr'.padStart(300, 'x') }]) {
      const res = await post('/api/auth/password/forgot', body, { ip: '10.9.3.2' });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });
});

describe('password change', () => {
  it('ends the other sessions of the account and keeps this one', async () => {
    await createUser(server.ctx.db, { name: 'Deux', email: 'deux@test.local', password: 'password-123' });
    const here = await server.login('deux@test.local', 'password-123');
    const elsewhere = await server.login('deux@test.local', 'password-123');
    const wrong = await post('/api/me/password', { current_password: 'nope', password: GOOD }, { token: here });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({ errors: { current_password: 'Mot de passe actuel incorrect' } });
    const res = await post('/api/me/password', { current_password: 'password-123', password: GOOD }, { token: here });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { sessions_closed: 1 }, message: 'Mot de passe modifié' });
    expect((await me(here)).status).toBe(200);
    expect((await me(elsewhere)).status).toBe(401);
    expect((await signIn('deux@test.local', GOOD)).status).toBe(200);
    expect((await post('/api/me/password', { current_password: GOOD, password: GOOD })).status).toBe(401);
  });
});
