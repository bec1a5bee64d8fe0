import type { Logger } from 'pino';
import type { TaboolaAccount, TaboolaCampaign, Targeting } from '../../../src/api/taboola/contract';
import { AppError } from '../../errors';
import { normalizePostalCode } from '../geo';
import { backstageError, unreachable } from './errors';
import type { TaboolaProvider } from './provider';

export interface BackstageConfig {
  clientId: string;
  clientSecret: string;
  /** The base the /backstage/… paths are appended to. */
  apiUrl: string;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Per request (ms). */
  timeoutMs?: number;
}

/** A token is renewed this long before Backstage says it expires (it lasts 12 hours). */
const RENEW_BEFORE_S = 300;

type Json = Record<string, unknown>;

/**
 * The Backstage client: a client-credentials token, form-encoded, kept in memory and reused until
 * shortly before its `expires_in` (concurrent calls share one request for it); a 401 on a call
 * fetches a new token once and retries. The secret goes into the token request's body and
 * nowhere else: neither logged, nor in an error, nor in an answer.
 */
export function backstageProvider(cfg: BackstageConfig): TaboolaProvider {
  const base = cfg.apiUrl.replace(/\/+$/, '');
  const timeoutMs = cfg.timeoutMs ?? 30_000;
  let token: { value: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    } catch {
      throw unreachable();
    }
  }

  async function fail(res: Response): Promise<never> {
    const body = await res.text().catch(() => '');
    throw backstageError(res.status, body, res.headers.get('content-type') ?? '', [cfg.clientSecret]);
  }

  async function fetchToken(): Promise<string> {
    const res = await send(`${base}/backstage/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ client_id: cfg.clientId, client_secret: cfg.clientSecret, grant_type: 'client_credentials' }).toString(),
    });
    if (!res.ok) await fail(res);
    const json = (await res.json().catch(() => ({}))) as Json;
    if (typeof json.access_token !== 'string' || !json.access_token) throw new AppError(502, 'taboola_error', "Taboola a répondu sans jeton d'accès");
    const expiresIn = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 3600;
    token = { value: json.access_token, renewAt: Date.now() + Math.max(expiresIn - RENEW_BEFORE_S, expiresIn / 2) * 1000 };
    cfg.log.info({ expires_in: expiresIn }, 'taboola token obtained');
    return token.value;
  }

  function currentToken(): Promise<string> {
    if (token && Date.now() < token.renewAt) return Promise.resolve(token.value);
    pending ??= fetchToken().finally(() => (pending = undefined));
    return pending;
  }

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const bearer = await currentToken();
      const res = await send(`${base}/backstage/api/1.0${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status === 401 && attempt === 0) {
        if (token?.value === bearer) token = undefined;
        cfg.log.warn('taboola token refused, fetching a new one');
        continue;
      }
      if (!res.ok) await fail(res);
      return (await res.json().catch(() => ({}))) as Json;
    }
  }

  const results = (json: Json): Json[] => (Array.isArray(json.results) ? (json.results as Json[]) : []);
  const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const seg = (s: string) => encodeURIComponent(s);

  /** Backstage's targeting, with codes as strings (a number would have lost 01000's zero) and without a country prefix. */
  const toTargeting = (json: Json): Targeting => {
    const holder = (json.collection ? json : ((json.postal_codes as Json | undefined) ?? json)) as Json;
    const type = str(holder.type).toUpperCase();
    const collection = Array.isArray(holder.collection) ? holder.collection : [];
    return {
      type: type === 'INCLUDE' || type === 'EXCLUDE' ? type : 'ALL',
      codes: collection.map((c) =>
        normalizePostalCode(str(typeof c === 'object' && c !== null ? ((c as Json).postal_code ?? (c as Json).value) : c).replace(/^[A-Z]{2}[-:\s]?/i, '')),
      ),
    };
  };

  return {
    sandbox: false,
    async accounts(): Promise<TaboolaAccount[]> {
      return results(await call('GET', '/users/current/allowed-accounts')).map((a) => ({ id: str(a.id), name: str(a.name), account_id: str(a.account_id) }));
    },
    async campaigns(accountId): Promise<TaboolaCampaign[]> {
      return results(await call('GET', `/${seg(accountId)}/campaigns/`)).map((c) => ({
        id: str(c.id),
        name: str(c.name),
        advertiser_id: str(c.advertiser_id),
      }));
    },
    async targeting(accountId, campaignId) {
      return toTargeting(await call('GET', `/${seg(accountId)}/campaigns/${seg(campaignId)}/targeting/postal_code`));
    },
    async setTargeting(accountId, campaignId, t) {
      const path = `/${seg(accountId)}/campaigns/${seg(campaignId)}/targeting/postal_code`;
      await call('POST', path, { type: t.type, collection: t.type === 'ALL' ? [] : t.codes });
      return toTargeting(await call('GET', path));
    },
  };
}
