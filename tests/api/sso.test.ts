// Single sign-on against a real OpenID provider (oidc-provider on a port of this machine): its
// own login and consent pages are filled in as a browser would, cookies and all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../server/services/users';
import { CLIENT, startOidcProvider } from '../support/oidc-provider';
import { ADMIN, startServer, type TestServer } from './harness';

const identities = {
  admin: { email: ADMIN.email.toUpperCase(), email_verified: true },
  staff: { email: 'sso-staff@test.local', email_verified: true },
  unverified: { email: ADMIN.email, email_verified: false },
  stranger: { email: 'stranger@test.local', email_verified: true },
  'other-audience': { email: ADMIN.email, email_verified: true, otherAudience: true },
};

let idp: Awaited<ReturnType<typeof startOidcProvider>>;
let server: TestServer;

beforeAll(async () => {
  idp = await startOidcProvider(identities);
  server = await startServer({ OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: CLIENT.id, OIDC_CLIENT_SECRET: CLIENT.secret, OIDC_LABEL: 'Annuaire Test' });
  idp.configure(server.url);
  await createUser(server.ctx.db, { name: 'Staff SSO', email: 'sso-staff@test.local', password: 'sso-staff-password-1' });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await idp?.close();
});

/** A browser: cookies kept per host, redirects followed by hand so that each hop's cookies are kept. */
function browser() {
  const jars = new Map<string, Map<string, string>>();
  return {
    async fetch(url: string, init: RequestInit = {}) {
      const host = new URL(url).host;
      const jar = jars.get(host) ?? new Map<string, string>();
      jars.set(host, jar);
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) jar.delete(pair.slice(0, at));
        else jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return res;
    },
  };
}

/**
 * Signs in at the provider as `login` from the console's start, answering its login and consent
 * pages, until the provider sends the browser back to the console: answers that callback URL.
 */
async function throughProvider(b: ReturnType<typeof browser>, login: string): Promise<{ callback: URL }> {
  let res = await b.fetch(`${server.url}/api/auth/oidc/start`);
  expect(res.status).toBe(302);
  let url = new URL(res.headers.get('location')!);
  expect(url.origin).toBe(idp.issuer);
  for (let hop = 0; hop < 20; hop++) {
    if (url.href.startsWith(`${server.url}/api/auth/oidc/callback`)) return { callback: url };
    res = await b.fetch(url.href);
    if (res.status === 200) {
      const html = await res.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(html)![1];
      const action = /<form[^>]*action="([^"]+)"/.exec(html)![1];
      const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
      res = await b.fetch(new URL(action, url).href, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    }
    expect([302, 303]).toContain(res.status);
    url = new URL(res.headers.get('location')!, url);
  }
  throw new Error('the provider never sent the browser back');
}

/** The console's answer to the callback: where it sends the browser (the sign-in page, with a code or an error). */
async function callback(b: ReturnType<typeof browser>, url: URL) {
  const res = await b.fetch(url.href);
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!, server.url);
}

const exchange = (code: string) => server.request('POST', '/api/auth/sso', { body: { code }, headers: { 'user-agent': 'SSO test browser' } });

async function lastAudit() {
  const { rows } = await server.ctx.db.query<{ action: string; user_id: number | null; details: Record<string, unknown>; ip: string | null }>(
    'SELECT action, user_id, details, ip FROM audit_log ORDER BY id DESC LIMIT 1',
  );
  return rows[0];
}

describe('GET /api/auth/methods', () => {
  it('names the provider for the sign-in page', async () => {
    const res = await server.request('GET', '/api/auth/methods');
    expect(await res.json()).toEqual({ data: { password: true, oidc: { label: 'Annuaire Test' }, passkeys: true } });
  });
});

describe('single sign-on', () => {
  it('signs an existing account in, its email matched whatever its case, through a one-time code used once', async () => {
    const b = browser();
    const { callback: url } = await throughProvider(b, 'admin');
    const back = await callback(b, url);
    expect(back.pathname).toBe('/login');
    const code = back.searchParams.get('sso')!;
    expect(code).toMatch(/^[\w-]{43}$/);

    const res = await exchange(code);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { token: string; user: { email: string } }; token: string };
    expect(body.data.user.email).toBe(ADMIN.email);
    expect(body.token).toBe(body.data.token);
    const me = await server.request('GET', '/api/me', { token: body.token });
    expect(me.status).toBe(200);
    expect(await lastAudit()).toMatchObject({ action: 'auth.sign_in', details: { method: 'sso' }, ip: '127.0.0.1' });

    const sessions = (await (await server.request('GET', '/api/me/sessions', { token: body.token })).json()) as {
      data: { current: boolean; method: string }[];
    };
    expect(sessions.data.find((s) => s.current)).toMatchObject({ method: 'sso', user_agent: 'SSO test browser' });

    // Replayed: refused, and no second session.
    const replay = await exchange(code);
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { message: string }).message).toMatch(/invalide ou expiré/);
  });

  it('refuses a code after its 60 seconds', async () => {
    const b = browser();
    const back = await callback(b, (await throughProvider(b, 'staff')).callback);
    const code = back.searchParams.get('sso')!;
    await server.ctx.db.query("UPDATE sso_codes SET expires_at = now() - interval '1 second'");
    expect((await exchange(code)).status).toBe(401);
  });

  it('refuses a wrong state, and a callback from another browser', async () => {
    const b = browser();
    const { callback: url } = await throughProvider(b, 'admin');
    const forged = new URL(url);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    expect((await callback(b, forged)).search).toBe('?sso_error=expired');
    expect(await lastAudit()).toMatchObject({ action: 'auth.sign_in_failed', user_id: null, details: { method: 'sso', reason: 'expired' } });

    // The genuine answer, now: the flow was used up by the forged one.
    expect((await callback(b, url)).search).toBe('?sso_error=expired');

    // A genuine answer carried to a browser that did not start the flow (login fixation): refused,
    // and, as anyone may call the callback, not a row of the audit log.
    const other = await throughProvider(browser(), 'admin');
    const rowsBefore = (await server.ctx.db.query('SELECT 1 FROM audit_log')).rows.length;
    expect((await callback(browser(), other.callback)).search).toBe('?sso_error=expired');
    expect((await server.ctx.db.query('SELECT 1 FROM audit_log')).rows.length).toBe(rowsBefore);
  });

  it('refuses an id token issued for another audience', async () => {
    const b = browser();
    expect((await callback(b, (await throughProvider(b, 'other-audience')).callback)).search).toBe('?sso_error=failed');
    expect(await lastAudit()).toMatchObject({ action: 'auth.sign_in_failed', details: { reason: 'failed' } });
    expect(String((await lastAudit()).details.detail)).toMatch(/aud/);
  });

  it('refuses an unverified email', async () => {
    const b = browser();
    expect((await callback(b, (await throughProvider(b, 'unverified')).callback)).search).toBe('?sso_error=unverified');
  });

  it('creates no account for an unknown email', async () => {
    const b = browser();
    expect((await callback(b, (await throughProvider(b, 'stranger')).callback)).search).toBe('?sso_error=unknown');
    const { rows } = await server.ctx.db.query("SELECT 1 FROM users WHERE email = 'stranger@test.local'");
    expect(rows).toEqual([]);
  });

  it('limits the sign-ins started from one address', async () => {
    const start = () => fetch(`${server.url}/api/auth/oidc/start`, { redirect: 'manual', headers: { 'x-forwarded-for': '203.0.113.77' } });
    for (let i = 0; i < 30; i++) expect((await start()).status).toBe(302);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^Trop de connexions unique/);
  });

  it('answers bad codes with a French 401 or 422, never a 500', async () => {
    expect((await exchange('x'.repeat(43))).status).toBe(401);
    const empty = await server.request('POST', '/api/auth/sso', { body: {} });
    expect(empty.status).toBe(422);
    const wrongType = await server.request('POST', '/api/auth/sso', { body: { code: 42 } });
    expect(wrongType.status).toBe(422);
  });
});

describe('without a provider configured', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startServer();
  });
  afterAll(() => plain.close());

  it('offers the password alone, and the SSO routes answer 404', async () => {
    expect(await (await plain.request('GET', '/api/auth/methods')).json()).toEqual({ data: { password: true, oidc: null, passkeys: true } });
    const start = await plain.request('GET', '/api/auth/oidc/start');
    expect(start.status).toBe(404);
    expect(((await start.json()) as { message: string }).message).toMatch(/pas configurée/);
  });
});
