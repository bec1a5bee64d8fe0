import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ssoApi } from '../../src/api/sso/endpoints';
import { route } from '../endpoint';
import { auditSsoFailure, exchangeSsoCode, finishSso, notConfigured, SsoError, ssoProvider, ssoStartLimit, startSso } from '../services/auth/sso';
import { consume } from '../services/rate-limit';

const FLOW_COOKIE = 'lc_oidc';
const COOKIE_PATH = '/api/auth/oidc';

function flowCookie(req: FastifyRequest): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === FLOW_COOKIE) return value.join('=');
  }
  return undefined;
}

export default async function ssoRoutes(app: FastifyInstance) {
  const { db, config, log } = app.ctx;
  const provider = ssoProvider(config);
  const origin = (req: FastifyRequest) => config.PUBLIC_URL?.replace(/\/+$/, '') ?? `${req.protocol}://${req.host}`;
  const redirectUri = (req: FastifyRequest) => `${origin(req)}/api/auth/oidc/callback`;

  route(app, ssoApi.methods, async () => ({
    // An account that registered a passkey may sign in with it alone (two-factor/passkeys.ts).
    data: { password: true as const, oidc: provider ? { label: provider.label } : null, passkeys: true },
  }));

  route(app, ssoApi.start, async (req, reply) => {
    if (!provider) throw notConfigured();
    await consume(db, ssoStartLimit, req.ip);
    const browser = randomBytes(32).toString('base64url');
    const url = await startSso(db, provider, redirectUri(req), browser);
    const secure = origin(req).startsWith('https:') ? '; Secure' : '';
    reply.header('set-cookie', `${FLOW_COOKIE}=${browser}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=600${secure}`);
    return reply.header('cache-control', 'no-store').redirect(url.href, 302);
  });

  route(app, ssoApi.callback, async (req, reply) => {
    if (!provider) throw notConfigured();
    reply.header('set-cookie', `${FLOW_COOKIE}=; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`).header('cache-control', 'no-store');
    try {
      const code = await finishSso(db, provider, new URL(req.url, origin(req)), flowCookie(req), req.headers['user-agent'] ?? '');
      return reply.redirect(`/login?sso=${encodeURIComponent(code)}`, 302);
    } catch (error) {
      const failure = error instanceof SsoError ? error : new SsoError('failed', error instanceof Error ? error.message : String(error));
      if (!(error instanceof SsoError)) log.warn({ err: error }, 'single sign-on failed');
      if (failure.audited) await auditSsoFailure(db, failure);
      return reply.redirect(`/login?sso_error=${failure.reason}`, 302);
    }
  });

  route(app, ssoApi.exchange, async (req) => {
    const { token, user } = await exchangeSsoCode(db, req.body.code, req.ip, req.headers['user-agent'] ?? '', config.TOKEN_TTL_HOURS);
    return { data: { token, user }, token };
  });
}
