import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContext } from 'oidc-provider';

/** The identities the provider knows, by the login typed on its page. */
export interface Identity {
  email: string;
  email_verified: boolean;
  /** The provider answers an id token issued to another client (another audience) for this identity. */
  otherAudience?: boolean;
}

export const CLIENT = { id: 'lead-console', secret: 'lead-console-secret-0123456789abcdef' };

/**
 * A real OpenID provider (oidc-provider, its development login and consent pages) on a port of
 * this machine. Its issuer is known once it listens, the console's callback once the console does:
 * `configure` builds the provider then.
 */
export async function startOidcProvider(identities: Record<string, Identity>, port = 0) {
  let provider: Provider | undefined;
  const server: Server = createServer((req, res) => {
    if (provider) provider.callback()(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    configure(consoleUrl: string) {
      const redirect_uris = [`${consoleUrl}/api/auth/oidc/callback`];
      provider = new Provider(issuer, {
        clients: [
          { client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris, grant_types: ['authorization_code'], response_types: ['code'] },
          { client_id: 'another-app', client_secret: 'another-app-secret-0123456789abcdef', redirect_uris, grant_types: ['authorization_code'] },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        cookies: { keys: ['test-cookie-key-0123456789'] },
        pkce: { required: () => true },
        findAccount: (_ctx: unknown, id: string) => {
          const identity = identities[id];
          return identity ? { accountId: id, claims: () => ({ sub: id, email: identity.email, email_verified: identity.email_verified }) } : undefined;
        },
      });
      provider.use(async (ctx: KoaContext, next) => {
        await next();
        const body = ctx.body as { id_token?: string } | undefined;
        if (ctx.path !== '/token' || !body?.id_token) return;
        const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1], 'base64url').toString()) as { sub: string; nonce?: string };
        if (!identities[claims.sub]?.otherAudience) return;
        const token = new provider!.IdToken({ sub: claims.sub }, { ctx, client: await provider!.Client.find('another-app') });
        token.scope = 'openid';
        if (claims.nonce) token.set('nonce', claims.nonce);
        body.id_token = await token.issue({ use: 'idtoken' });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
