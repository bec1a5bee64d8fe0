import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

// The address of the request being answered, for the audit rows its services write: every service
// would otherwise take it as a parameter it does nothing else with. Jobs run outside any request.
const store = new AsyncLocalStorage<string>();

export const requestAddress = (): string | null => store.getStore() ?? null;

/** Runs the rest of each request (hooks, handler) with its client address in reach of `requestAddress()`. */
export function trackRequestAddress(app: FastifyInstance) {
  app.addHook('onRequest', (req, _reply, done) => store.run(req.ip, done));
}
