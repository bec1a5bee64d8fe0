import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every /api route answers what its endpoint object declares (`response`: a schema of its
 * contract, 'file' for a download, 'none' for an answer without a body); plugins/auth.ts stops the
 * start-up on an /api route registered without an endpoint.
 *
 * With `checkContracts` (the API tests), every 2xx JSON answer is parsed with its schema before it
 * leaves: an answer that drifted from the contract the client types itself with becomes a 500
 * `contract_drift` naming the fields, so the schemas cannot drift from the server unseen; so does
 * a body sent by a route declared 'none'.
 */
export default fp(async function contracts(app: FastifyInstance, opts: { check: boolean }) {
  if (!opts.check) return;

  app.addHook('onSend', async (req, reply, payload) => {
    const schema = req.routeOptions.config.endpoint?.response;
    // An event stream is written to the socket past onSend; its events are parsed with their schema as they are read from the outbox (services/events).
    if (!schema || schema === 'file' || reply.statusCode >= 300 || (typeof schema === 'object' && 'eventStream' in schema)) return payload;
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
