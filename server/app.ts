import { existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppContext } from './context';
import authPlugin from './plugins/auth';
import compressionPlugin from './plugins/compression';
import contractsPlugin from './plugins/contracts';
import declaredLengthPlugin from './plugins/declared-length';
import errorsPlugin from './plugins/errors';
import { registerJsonBody } from './plugins/json-body';
import securityHeadersPlugin from './plugins/security-headers';
import textInputPlugin from './plugins/text-input';
import { keepRawQuery, zodValidatorCompiler } from './endpoint';
import { routeModules } from './route-modules';
import { trackRequestAddress } from './request-address';
import { closeConnectionsWhenIdle } from './close-connections';
import { signInLanguage, signInPageFile, signInStyleSources } from './sign-in-page';

const defaultDistDir = resolve(import.meta.dirname, '../dist');

/**
 * Vite names what it emits in assets/ by the hash of its content: a new build writes new names, so
 * the browser keeps those a year without asking again. Everything else (index.html, which names
 * the current assets, and the licences) is revalidated on each use.
 */
function cacheControlFor(distDir: string, path: string): string {
  return relative(distDir, path).startsWith(`assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** `distDir`: the built front end to serve; browser tests give their own build so a concurrent `vite build` cannot pull it away. */
export async function buildApp(ctx: AppContext, distDir = defaultDistDir): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log as FastifyBaseLogger,
    genReqId: (req) => (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID(),
    requestIdHeader: false,
    bodyLimit: ctx.config.BODY_LIMIT_MB * 1024 * 1024,
    trustProxy: ctx.config.TRUST_PROXY,
    // Answered by the router before any route or hook (a malformed %-escape, a path parameter over
    // 100 characters): Fastify's own bodies are in English.
    frameworkErrors: (err, _req, reply: FastifyReply) => {
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      reply
        .status(tooLong ? 414 : 400)
        .send({ error: 'bad_request', message: tooLong ? "Un paramètre de l'adresse est trop long" : "L'adresse demandée est mal encodée" });
    },
  });
  app.decorate('ctx', ctx);
  app.setValidatorCompiler(zodValidatorCompiler);
  keepRawQuery(app);
  registerJsonBody(app);
  trackRequestAddress(app);
  closeConnectionsWhenIdle(app);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  await app.register(errorsPlugin);
  await app.register(declaredLengthPlugin);
  await app.register(securityHeadersPlugin, { inlineStyles: signInStyleSources(distDir) });
  await app.register(compressionPlugin);
  await app.register(contractsPlugin, { check: ctx.config.checkContracts === true });
  await app.register(authPlugin);
  await app.register(textInputPlugin);
  for (const route of await routeModules()) await app.register(route);

  if (existsSync(join(distDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The .br and .gz files the build wrote beside each one, by the request's Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => reply.header('cache-control', cacheControlFor(distDir, path)),
    });
    // The sign-in page, drawn in the HTML itself in the visitor's language when the build wrote it.
    if (existsSync(join(distDir, signInPageFile('fr')))) {
      app.get('/login', (req, reply) => {
        reply.header('vary', 'accept-language, cookie');
        return reply.sendFile(signInPageFile(signInLanguage(req.headers.cookie, req.headers['accept-language'])));
      });
    }
    // History fallback: every non-API GET that is not a file gets the single-page app.
    app.get('/*', (req, reply) => {
      if (req.url.startsWith('/api/')) {
        return reply.status(404).send({ error: 'not_found', message: 'Ressource introuvable' });
      }
      return reply.sendFile('index.html');
    });
  }
  return app;
}
