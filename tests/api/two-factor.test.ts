// Second factors (issue 29): TOTP with recovery codes, passkeys, the sign-in with a code, the
// REQUIRE_2FA enrolment and an admin's reset. Codes are computed here with otpauth, passkeys
// answered by a software authenticator (node:crypto), against the real server.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/services/users';
import { ADMIN, startServer, type TestServer } from './harness';
import { SoftAuthenticator } from './software-authenticator';

const ORIGIN = 'http://localhost:4999';
const PASSWORD = 'password-12345';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ PUBLIC_URL: ORIGIN });
});
afterAll(() => server.close());

let seq = 0;
/** A fresh account at a fresh address (each test its own throttle pair), and its session. */
async function account(s = server, admin = false) {
  seq += 1;
  const email = `mfa${seq}@test.local`;
  await createUser(s.ctx.db, { name: `Compte ${seq}`, email, password: PASSWORD, admin });
  const ip = `10.29.${Math.floor(seq / 250)}.${seq % 250}`;
  const headers = { 'x-forwarded-for': ip };
  const auth = (body: object) => s.request('POST', '/api/auth', { body: { email, password: PASSWORD, ...body }, headers });
  const token = ((await (await auth({})).json()) as { token: string }).token;
  return { email, ip, headers, auth, token, id: (await s.ctx.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]!.id };
}

const codeAt = (secret: string, offsetSteps = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
const json = async <T = Record<string, unknown>>(res: Response) => (await res.json()) as T;

/** Enrols a TOTP for the session: answers the secret and the recovery codes (step 0 is spent by the confirmation). */
async function enrolTotp(token: string, s = server) {
  const begin = await json<{ data: { secret: string; otpauth_url: string; qr_svg: string } }>(await s.request('POST', '/api/me/2fa/totp', { token }));
  const confirm = await s.request('POST', '/api/me/2fa/totp/confirm', { token, body: { code: codeAt(begin.data.secret) } });
  expect(confirm.status).toBe(200);
  return { ...begin.data, recovery: (await json<{ data: { recovery_codes: string[] } }>(confirm)).data.recovery_codes };
}

describe('TOTP enrolment', () => {
  it('hands a pending secret with its QR code, confirmed by one code, then ten recovery codes once', async () => {
    const a = await account();
    expect((await json(await server.request('GET', '/api/me/2fa', { token: a.token }))).data).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });

    const begin = await json<{ data: { secret: string; otpauth_url: string; qr_svg: string } }>(
      await server.request('POST', '/api/me/2fa/totp', { token: a.token }),
    );
    expect(begin.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(begin.data.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(begin.data.secret);
    expect(url.searchParams.get('issuer')).toBe('Console leads');
    expect(begin.data.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Pending: not a factor yet, the sign-in asks for no code.
    expect((await a.auth({})).status).toBe(200);

    const wrong = await server.request('POST', '/api/me/2fa/totp/confirm', { token: a.token, body: { code: codeAt(begin.data.secret, 3) } });
    expect(wrong.status).toBe(422);
    expect((await json(wrong)).errors).toEqual({ code: 'Code incorrect ou expiré' });

    const ok = await server.request('POST', '/api/me/2fa/totp/confirm', { token: a.token, body: { code: codeAt(begin.data.secret) } });
    expect(ok.status).toBe(200);
    const codes = (await json<{ data: { recovery_codes: string[] } }>(ok)).data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect((await json(await server.request('GET', '/api/me/2fa', { token: a.token }))).data).toEqual({ totp: true, passkeys: [], recovery_codes_left: 10 });

    // Confirmed: a second enrolment or confirmation is refused, the secret stays.
    expect((await server.request('POST', '/api/me/2fa/totp', { token: a.token })).status).toBe(409);
    expect((await server.request('POST', '/api/me/2fa/totp/confirm', { token: a.token, body: { code: codeAt(begin.data.secret, 1) } })).status).toBe(409);

    // What a database dump shows: neither the secret nor a recovery code.
    const dump = JSON.stringify(
      (await server.ctx.db.query('SELECT t.secret, r.code_hash FROM totp_factors t JOIN recovery_codes r USING (user_id) WHERE t.user_id = $1', [a.id])).rows,
    );
    expect(dump).not.toContain(begin.data.secret);
    for (const c of codes) expect(dump).not.toContain(c.replace(/-/g, ''));

    const audit = await server.ctx.db.query(`SELECT details FROM audit_log WHERE action = 'users.2fa.totp_enabled' AND user_id = $1`, [a.id]);
    expect(audit.rows).toEqual([{ details: { user_id: a.id } }]);
  });

  it('refuses bad input with French messages', async () => {
    const a = await account();
    expect((await server.request('POST', '/api/me/2fa/totp/confirm', { token: a.token, body: { code: '123456' } })).status).toBe(409);
    for (const body of [{}, { code: '' }, { code: 123456 }, { code: 'x'.repeat(65) }]) {
      const res = await server.request('POST', '/api/me/2fa/totp/confirm', { token: a.token, body });
      expect(res.status).toBe(422);
      expect((await json<{ errors: Record<string, string> }>(res)).errors.code).toBeTruthy();
    }
    expect((await server.request('DELETE', '/api/me/2fa/totp', { token: a.token, body: { code: '123456' } })).status).toBe(404);
    expect((await server.request('POST', '/api/me/2fa/totp', {})).status).toBe(401);
  });

  it('stops guessing the confirmation code after five wrong ones', async () => {
    const a = await account();
    const { secret } = (await json<{ data: { secret: string } }>(await server.request('POST', '/api/me/2fa/totp', { token: a.token }))).data;
    for (let i = 0; i < 5; i++)
      expect((await server.request('POST', '/api/me/2fa/totp/confirm', { token: a.token, body: { code: '000000' } })).status).toBe(422);
    const res = await server.request('POST', '/api/me/2fa/totp/confirm', { token: a.token, body: { code: codeAt(secret) } });
    expect(res.status).toBe(429);
  });
});

describe('sign-in with a code', () => {
  it('asks for the code, refuses a wrong, stale or replayed one, takes the next step once', async () => {
    const a = await account();
    const { secret } = await enrolTotp(a.token);

    const none = await a.auth({});
    expect(none.status).toBe(401);
    expect(await json(none)).toMatchObject({ error: 'code_required', methods: ['totp'] });

    const wrong = await a.auth({ code: '000000' });
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).error).toBe('code_invalid');

    // The confirmation spent the current step: the same code again is a replay.
    expect((await json(await a.auth({ code: codeAt(secret) }))).error).toBe('code_invalid');
    // Two steps away: stale.
    expect((await json(await a.auth({ code: codeAt(secret, -2) }))).error).toBe('code_invalid');

    const next = codeAt(secret, 1);
    const ok = await a.auth({ code: next });
    expect(ok.status).toBe(200);
    expect((await json<{ data: { user: { email: string } } }>(ok)).data.user.email).toBe(a.email);
    // The same code again, or the one before it: refused.
    expect((await json(await a.auth({ code: next }))).error).toBe('code_invalid');
    expect((await json(await a.auth({ code: codeAt(secret) }))).error).toBe('code_invalid');
    // A wrong password with a right code still answers as a wrong password.
    expect(
      (
        await json(
          await server.request('POST', '/api/auth', { body: { email: a.email, password: 'nope-nope-nope', code: codeAt(secret, 1) }, headers: a.headers }),
        )
      ).error,
    ).toBe('invalid_credentials');
  });

  it('takes each recovery code once, typed with or without dashes, in any case', async () => {
    const a = await account();
    const { recovery } = await enrolTotp(a.token);
    const first = recovery[0]!;
    expect((await a.auth({ code: first.toLowerCase() })).status).toBe(200);
    const again = await a.auth({ code: first.replace(/-/g, '') });
    expect(again.status).toBe(401);
    expect((await json(again)).error).toBe('code_invalid');
    expect((await a.auth({ code: ` ${recovery[1]!.replace(/-/g, ' ')} ` })).status).toBe(200);
    expect((await json(await server.request('GET', '/api/me/2fa', { token: a.token }))).data).toMatchObject({ recovery_codes_left: 8 });
  });

  it('counts wrong codes in the sign-in throttle', async () => {
    const a = await account();
    const { secret } = await enrolTotp(a.token);
    for (let i = 0; i < 5; i++) expect((await a.auth({ code: '111111' })).status).toBe(401);
    const limited = await a.auth({ code: codeAt(secret, 1) });
    expect(limited.status).toBe(429);
    expect((await json(limited)).error).toBe('rate_limited');
  });

  it('removes the TOTP on one of its codes (or a recovery code), and the sign-in asks for none again', async () => {
    const a = await account();
    const { secret, recovery } = await enrolTotp(a.token);
    const refused = await server.request('DELETE', '/api/me/2fa/totp', { token: a.token, body: { code: '222222' } });
    expect(refused.status).toBe(422);
    expect((await server.request('DELETE', '/api/me/2fa/totp', { token: a.token, body: { code: recovery[3] } })).status).toBe(200);
    expect((await json(await server.request('GET', '/api/me/2fa', { token: a.token }))).data).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
    expect((await a.auth({})).status).toBe(200);
    expect((await a.auth({ code: codeAt(secret, 1) })).status).toBe(200);
    expect((await server.ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'users.2fa.totp_removed' AND user_id = $1`, [a.id])).rows).toHaveLength(1);
  });
});

describe('passkeys', () => {
  async function register(token: string, authenticator: SoftAuthenticator, name = 'Portable') {
    const options = (
      await json<{ data: { challenge: string; user: { id: string }; rp: { id: string } } }>(
        await server.request('POST', '/api/me/2fa/passkeys/options', { token }),
      )
    ).data;
    expect(options.rp.id).toBe('localhost');
    const res = await server.request('POST', '/api/me/2fa/passkeys', { token, body: { name, response: authenticator.create(options) } });
    expect(res.status).toBe(201);
    return (await json<{ data: { id: number; name: string } }>(res)).data;
  }
  const signInOptions = async () => (await json<{ data: { challenge: string } }>(await server.request('POST', '/api/auth/passkey/options', {}))).data;

  it('registers, lists, renames and removes a key; a key answering another challenge or origin is refused', async () => {
    const a = await account();
    const device = new SoftAuthenticator(ORIGIN);
    const key = await register(a.token, device, '  Clé USB  ');
    expect(key.name).toBe('Clé USB');
    const status = (
      await json<{ data: { passkeys: { id: number; name: string; created_at: string }[] } }>(await server.request('GET', '/api/me/2fa', { token: a.token }))
    ).data;
    expect(status.passkeys).toEqual([{ id: key.id, name: 'Clé USB', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);

    const renamed = await server.request('PATCH', `/api/me/2fa/passkeys/${key.id}`, { token: a.token, body: { name: 'Téléphone' } });
    expect((await json<{ data: { name: string } }>(renamed)).data.name).toBe('Téléphone');
    expect((await server.request('PATCH', `/api/me/2fa/passkeys/${key.id}`, { token: a.token, body: { name: ' ' } })).status).toBe(422);
    expect((await server.request('PATCH', `/api/me/2fa/passkeys/${key.id}`, { token: a.token, body: { name: 'x'.repeat(65) } })).status).toBe(422);
    expect((await server.request('PATCH', '/api/me/2fa/passkeys/abc', { token: a.token, body: { name: 'x' } })).status).toBe(404);

    // The options' challenge is spent once; another site's origin is refused.
    const options = (
      await json<{ data: { challenge: string; user: { id: string } } }>(await server.request('POST', '/api/me/2fa/passkeys/options', { token: a.token }))
    ).data;
    const phished = await server.request('POST', '/api/me/2fa/passkeys', {
      token: a.token,
      body: { name: 'Ailleurs', response: device.create(options, { origin: 'http://localhost.evil.test' }) },
    });
    expect(phished.status).toBe(401);
    expect((await json(phished)).error).toBe('passkey_invalid');
    const replay = await server.request('POST', '/api/me/2fa/passkeys', { token: a.token, body: { name: 'Encore', response: device.create(options) } });
    expect(replay.status).toBe(401);
    expect((await server.request('POST', '/api/me/2fa/passkeys', { token: a.token, body: { name: 'Rien' } })).status).toBe(422);

    expect((await server.request('DELETE', `/api/me/2fa/passkeys/${key.id}`, { token: a.token })).status).toBe(200);
    expect((await server.request('DELETE', `/api/me/2fa/passkeys/${key.id}`, { token: a.token })).status).toBe(404);
    const actions = await server.ctx.db.query<{ action: string }>(`SELECT action FROM audit_log WHERE user_id = $1 AND action LIKE 'users.2fa.%' ORDER BY id`, [
      a.id,
    ]);
    expect(actions.rows.map((r) => r.action)).toEqual(['users.2fa.passkey_added', 'users.2fa.passkey_removed']);
  });

  it('signs in alone when the key verified its user, as a second factor after the password otherwise', async () => {
    const a = await account();
    const device = new SoftAuthenticator(ORIGIN);
    await register(a.token, device);
    const credential = device.credentials[0]!;

    // The password alone no longer signs in: the page is told a passkey will do.
    expect(await json(await a.auth({}))).toMatchObject({ error: 'code_required', methods: ['passkey'] });

    const alone = await server.request('POST', '/api/auth/passkey', { body: { response: device.get(await signInOptions(), credential) }, headers: a.headers });
    expect(alone.status).toBe(200);
    const signedIn = await json<{ token: string; data: { user: { email: string } } }>(alone);
    expect(signedIn.data.user.email).toBe(a.email);
    expect((await server.request('GET', '/api/me', { token: signedIn.token })).status).toBe(200);

    // Without user verification, a key alone is one factor: refused; with the password, it is the second.
    const unverified = device.get(await signInOptions(), credential, { userVerified: false });
    expect((await server.request('POST', '/api/auth/passkey', { body: { response: unverified }, headers: a.headers })).status).toBe(401);
    const second = device.get(await signInOptions(), credential, { userVerified: false });
    expect(
      (await server.request('POST', '/api/auth/passkey', { body: { response: second, email: a.email, password: PASSWORD }, headers: a.headers })).status,
    ).toBe(200);
    // The same answer twice: its challenge is spent.
    expect(
      (await server.request('POST', '/api/auth/passkey', { body: { response: second, email: a.email, password: PASSWORD }, headers: a.headers })).status,
    ).toBe(401);
    // A cloned key replaying an old counter is refused.
    credential.counter = 0;
    expect(
      (await server.request('POST', '/api/auth/passkey', { body: { response: device.get(await signInOptions(), credential) }, headers: a.headers })).status,
    ).toBe(401);
  });

  it("never accepts another account's key, nor lets another account rename or remove it", async () => {
    const a = await account();
    const b = await account();
    const deviceA = new SoftAuthenticator(ORIGIN);
    const key = await register(a.token, deviceA);
    await register(b.token, new SoftAuthenticator(ORIGIN));

    const asB = await server.request('POST', '/api/auth/passkey', {
      body: { response: deviceA.get(await signInOptions(), deviceA.credentials[0]!), email: b.email, password: PASSWORD },
      headers: b.headers,
    });
    expect(asB.status).toBe(401);
    expect((await json(asB)).error).toBe('passkey_invalid');
    expect((await server.request('PATCH', `/api/me/2fa/passkeys/${key.id}`, { token: b.token, body: { name: 'À moi' } })).status).toBe(404);
    expect((await server.request('DELETE', `/api/me/2fa/passkeys/${key.id}`, { token: b.token })).status).toBe(404);
    expect((await json<{ data: { passkeys: unknown[] } }>(await server.request('GET', '/api/me/2fa', { token: a.token }))).data.passkeys).toHaveLength(1);

    // A key nobody registered, and malformed answers.
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.create({ challenge: 'x', user: { id: 'eA' } });
    expect(
      (await server.request('POST', '/api/auth/passkey', { body: { response: stranger.get(await signInOptions(), stranger.credentials[0]!) } })).status,
    ).toBe(401);
    expect((await server.request('POST', '/api/auth/passkey', { body: {} })).status).toBe(422);
    const garbled = { ...stranger.get(await signInOptions(), stranger.credentials[0]!), response: { clientDataJSON: '%%%' } };
    expect((await server.request('POST', '/api/auth/passkey', { body: { response: garbled } })).status).toBe(401);
  });
});

describe('passkey sign-in options', () => {
  it('are handed out 30 a minute per address, each with its own challenge', async () => {
    const headers = { 'x-forwarded-for': '10.30.0.1' };
    const challenges = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const res = await server.request('POST', '/api/auth/passkey/options', { headers });
      expect(res.status).toBe(200);
      challenges.add((await json<{ data: { challenge: string } }>(res)).data.challenge);
    }
    expect(challenges.size).toBe(30);
    const refused = await server.request('POST', '/api/auth/passkey/options', { headers });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await server.request('POST', '/api/auth/passkey/options', { headers: { 'x-forwarded-for': '10.30.0.2' } })).status).toBe(200);
  });
});

describe('admin reset', () => {
  it("removes another account's factors, ends its sessions and is audited", async () => {
    const a = await account();
    await enrolTotp(a.token);
    const admin = await server.login(ADMIN.email, ADMIN.password);
    const adminId = (await json<{ data: { id: number } }>(await server.request('GET', '/api/me', { token: admin }))).data.id;

    expect((await server.request('DELETE', `/api/users/${a.id}/2fa`, { token: a.token })).status).toBe(403);
    expect((await server.request('DELETE', `/api/users/${adminId}/2fa`, { token: admin })).status).toBe(409);
    expect((await server.request('DELETE', '/api/users/999999/2fa', { token: admin })).status).toBe(404);

    const res = await server.request('DELETE', `/api/users/${a.id}/2fa`, { token: admin });
    expect(res.status).toBe(200);
    expect((await server.request('GET', '/api/me', { token: a.token })).status).toBe(401);
    const fresh = await json<{ token: string }>(await a.auth({}));
    expect((await json(await server.request('GET', '/api/me/2fa', { token: fresh.token }))).data).toEqual({
      totp: false,
      passkeys: [],
      recovery_codes_left: 0,
    });
    const audit = await server.ctx.db.query(`SELECT user_id, entity, details FROM audit_log WHERE action = 'users.2fa.reset'`);
    expect(audit.rows).toEqual([{ user_id: adminId, entity: 'user', details: { user_id: a.id, totp: true, passkeys: 0, sessions_closed: 1 } }]);
  });
});

describe('REQUIRE_2FA', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startServer({ PUBLIC_URL: ORIGIN, REQUIRE_2FA: 'admins' });
  });
  afterAll(() => strict.close());

  it('sends an admin without a factor to enrolment and lets it reach nothing else until it has one', async () => {
    const admin = await account(strict, true);
    const signedIn = await json<{ data: { enrolment_required?: boolean } }>(await admin.auth({}));
    expect(signedIn.data.enrolment_required).toBe(true);
    for (const [method, path] of [
      ['GET', '/api/me'],
      ['GET', '/api/users'],
      ['GET', '/api/landings'],
    ] as const) {
      const res = await strict.request(method, path, { token: admin.token });
      expect(res.status, path).toBe(403);
      expect((await json(res)).error).toBe('enrolment_required');
    }
    expect((await strict.request('GET', '/api/me/2fa', { token: admin.token })).status).toBe(200);
    await enrolTotp(admin.token, strict);
    // The same session now reaches everything.
    expect((await strict.request('GET', '/api/users', { token: admin.token })).status).toBe(200);
  });

  it('leaves the accounts it does not concern alone, and signs out an account held at enrolment', async () => {
    const staff = await account(strict);
    expect((await json<{ data: object }>(await staff.auth({}))).data).not.toHaveProperty('enrolment_required');
    expect((await strict.request('GET', '/api/me', { token: staff.token })).status).toBe(200);
    const admin = await account(strict, true);
    expect((await strict.request('POST', '/api/login/logout', { token: admin.token })).status).toBe(200);
  });
});
