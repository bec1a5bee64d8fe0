import { Negotiator } from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Text the server writes is compressed by content negotiation (Accept-Encoding: br, then gzip),
 * from 1 kB up, with `Vary: Accept-Encoding`. Never compressed:
 * - server-sent event streams (`text/event-stream`): each event must reach the browser when it is
 *   written, not when a compressor's block fills;
 * - downloads (endpoints answering 'file'): xlsx and pdf are compressed already, and a csv export
 *   keeps its Content-Length (the browser's progress) and its CPU for writing the rows;
 * - the built front end's files that the build compressed already (scripts/precompress.mjs): app.ts
 *   serves those as they are; only what it left (source maps) is compressed here.
 * Behind a reverse proxy that compresses too, one of the two must stop (docs/operations.md).
 */
export const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:[\w.-]+\+)?(?:json|xml|javascript)(?:;|$)|image\/svg\+xml)/;
const THRESHOLD = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

type RouteConfig = { endpoint?: { response?: unknown }; compress?: false } | undefined;

/**
 * An answer held whole (every JSON answer) is compressed in one call and sent with its
 * Content-Length in one write. @fastify/compress streams it through a compressor instead, and
 * the chunks of its chunked answer cost a lead page more socket writes and garbage collection
 * than the compression itself (docs/performance.md, "Server CPU per request"). Streams (files
 * that the build did not compress) are still its.
 */
async function compressWhole(reply: FastifyReply, payload: unknown, acceptEncoding: string | undefined) {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if ((reply.routeOptions.config as RouteConfig)?.compress === false || reply.hasHeader('content-encoding')) return payload;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return payload;
  const size = Buffer.byteLength(payload);
  if (size < THRESHOLD) return payload;
  reply.header('vary', 'Accept-Encoding');
  const encoding = acceptEncoding ? encodings.negotiate(acceptEncoding) : null;
  if (!encoding) return payload;
  reply.header('content-encoding', encoding);
  return encoding === 'br'
    ? brotli(payload, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: size },
      })
    : gz(payload);
}

export default fp(async function compression(app: FastifyInstance) {
  // Before @fastify/compress's own onRoute hook, which reads `config.compress`.
  app.addHook('onRoute', (routeOptions) => {
    const config = routeOptions.config as RouteConfig;
    if (config?.endpoint?.response === 'file') config.compress = false;
  });
  // Global, so before the route's own onSend that @fastify/compress adds: it leaves an answer
  // that has a Content-Encoding as it is.
  app.addHook('onSend', async (req, reply, payload) => compressWhole(reply, payload, req.headers['accept-encoding']));
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: THRESHOLD, customTypes: COMPRESSIBLE });
});
