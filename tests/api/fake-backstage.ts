import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BackstageCall {
  method: string;
  path: string;
  contentType: string;
  authorization: string;
  body: string;
}

/** One canned failure: the next calls to paths matching `path` answer this. */
interface Failure {
  path: RegExp;
  status: number;
  contentType: string;
  body: string;
  times: number;
}

/**
 * A local stand-in for Taboola Backstage (tests only): the form-encoded client-credentials token
 * endpoint, allowed accounts, campaigns and postal-code targeting kept in memory, tokens that can
 * be revoked, and failures on demand. Every call is recorded.
 */
export async function startFakeBackstage(opts: { clientId: string; clientSecret: string }) {
  const calls: BackstageCall[] = [];
  const failures: Failure[] = [];
  const validTokens = new Set<string>();
  let tokenSeq = 0;
  let expiresIn = 43_200;
  const targeting = new Map<string, { type: string; collection: unknown[] }>([['adv-one/101', { type: 'INCLUDE', collection: ['01000', '30000'] }]]);

  const send = (res: ServerResponse, status: number, body: unknown, contentType = 'application/json') => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = req.url ?? '';
    calls.push({ method: req.method ?? '', path, contentType: req.headers['content-type'] ?? '', authorization: req.headers.authorization ?? '', body });
    const failure = failures.find((f) => f.path.test(path) && f.times > 0);
    if (failure) {
      failure.times--;
      return send(res, failure.status, failure.body, failure.contentType);
    }
    if (path === '/backstage/oauth/token' && req.method === 'POST') {
      const form = new URLSearchParams(body);
      if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return send(res, 415, { message: 'form expected' });
      if (form.get('grant_type') !== 'client_credentials' || form.get('client_id') !== opts.clientId || form.get('client_secret') !== opts.clientSecret) {
        return send(res, 401, { error: 'invalid_client', error_description: 'Bad client credentials' });
      }
      const token = `token-${++tokenSeq}`;
      validTokens.add(token);
      return send(res, 200, { access_token: token, token_type: 'bearer', expires_in: expiresIn });
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!validTokens.has(bearer)) return send(res, 401, { http_status: 401, message: 'Token expired' });
    if (path === '/backstage/api/1.0/users/current/allowed-accounts') {
      return send(res, 200, {
        results: [
          { id: 1001, name: 'Annonceur Un', account_id: 'adv-one', partner_types: ['ADVERTISER'], type: 'PARTNER' },
          { id: 1002, name: 'Annonceur Deux', account_id: 'adv-two', partner_types: ['ADVERTISER'], type: 'PARTNER' },
        ],
      });
    }
    const campaigns = path.match(/^\/backstage\/api\/1\.0\/([^/]+)\/campaigns\/$/);
    if (campaigns) {
      if (campaigns[1] !== 'adv-one') return send(res, 404, { http_status: 404, message: `Account ${campaigns[1]} not found` });
      return send(res, 200, {
        results: [
          { id: '101', name: 'Campagne PAC', advertiser_id: 'adv-one', is_active: true },
          { id: 102, name: 'Campagne PV', advertiser_id: 'adv-one' },
        ],
      });
    }
    const target = path.match(/^\/backstage\/api\/1\.0\/([^/]+)\/campaigns\/([^/]+)\/targeting\/postal_code$/);
    if (target) {
      const key = `${target[1]}/${target[2]}`;
      if (req.method === 'POST') {
        const parsed = JSON.parse(body) as { type: string; collection: unknown[] };
        targeting.set(key, { type: parsed.type, collection: parsed.collection });
      }
      return send(res, 200, { ...(targeting.get(key) ?? { type: 'ALL', collection: [] }), href: null });
    }
    return send(res, 404, '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>', 'text/html');
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    targeting,
    tokenRequests: () => calls.filter((c) => c.path === '/backstage/oauth/token').length,
    /** Tokens issued from now on last `seconds`. */
    setExpiresIn: (seconds: number) => (expiresIn = seconds),
    /** Every token issued so far stops working (as after a revocation). */
    revokeTokens: () => validTokens.clear(),
    fail: (path: RegExp, status: number, contentType: string, body: string, times = 1) => failures.push({ path, status, contentType, body, times }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
