import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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

export default fp(async function compression(app: FastifyInstance) {
  // Before @fastify/compress's own onRoute hook, which reads `config.compress`.
  app.addHook('onRoute', (routeOptions) => {
    const config = routeOptions.config as { endpoint?: { response?: unknown }; compress?: false } | undefined;
    if (config?.endpoint?.response === 'file') config.compress = false;
  });
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024, customTypes: COMPRESSIBLE });
});
