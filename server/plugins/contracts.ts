import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';

/**
 * Every /api route declares what it answers: `config: { response: schema }` with the response
 * schema of its contract (src/api/<resource>/contract.ts), or 'file' for a download and 'none'
 * for an answer without a body. A route that declares nothing stops the server at start-up.
 *
 * With `checkContracts` (the API tests), every 2xx JSON answer is parsed with its schema before it
 * leaves: an answer that drifted from the contract the client types itself with becomes a 500
 * `contract_drift` naming the fields, so the schemas cannot drift from the server unseen; so does
 * a body sent by a route declared 'none'.
 */
export default fp(async function contracts(app: FastifyInstance, opts: { check: boolean }) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.method === 'OPTIONS' || route.method === 'HEAD') return;
    if (route.config?.response === undefined) throw new Error(`${route.method} ${route.url} declares no response contract (config.response)`);
  });
  if (!opts.check) return;

  app.addHook('onSend', async (req, reply, payload) => {
    const schema = req.routeOptions.config.response;
    if (!schema || schema === 'file' || reply.statusCode >= 300) return payload;
    if (schema === 'none')
      return payload === undefined || payload === null || payload === '' ? payload : drift(req, reply, 'declared without a body (none), answered one');
    if (typeof payload !== 'string') return payload;
    const parsed = schema.safeParse(JSON.parse(payload));
    if (parsed.success) return payload;
    return drift(req, reply, parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
  });
});

function drift(req: FastifyRequest, reply: FastifyReply, fields: string) {
  req.log.error({ fields }, 'contract drift');
  reply.status(500);
  return JSON.stringify({ error: 'contract_drift', message: `${req.method} ${req.routeOptions.url}: ${fields}` });
}

/** What a route answers (see above). */
export type ResponseContract = z.ZodType | 'file' | 'none';
