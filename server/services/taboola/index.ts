import type { AppContext } from '../../context';
import { backstageProvider } from './backstage';
import type { TaboolaProvider } from './provider';
import { sandboxProvider } from './sandbox';

/** Backstage when both credentials are configured, else the sandbox in the database. */
export function taboolaProvider(ctx: AppContext): TaboolaProvider {
  const { TABOOLA_CLIENT_ID: clientId, TABOOLA_CLIENT_SECRET: clientSecret, TABOOLA_API_URL: apiUrl } = ctx.config;
  if (clientId && clientSecret) return backstageProvider({ clientId, clientSecret, apiUrl, log: ctx.log });
  return sandboxProvider(ctx.db);
}
