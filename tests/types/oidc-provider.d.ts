// oidc-provider ships no types; what the tests use of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface KoaContext {
    path: string;
    method: string;
    body: unknown;
    oidc: unknown;
  }

  export interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    Client: { find(id: string): Promise<unknown> };
    IdToken: new (
      claims: Record<string, unknown>,
      options: { ctx: KoaContext; client: unknown },
    ) => { set(key: string, value: unknown): void; scope: string; issue(options: { use: 'idtoken' }): Promise<string> };
  }
}
