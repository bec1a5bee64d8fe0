import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler, RouteShorthandOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { BodyOf, Endpoint, ParamsOf, QueryOf, ResponseOut } from '../src/api/endpoint';
import { parse } from './validate';

/** The request a handler receives: params, query and body as the endpoint's schemas give them. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{ Params: ParamsOf<E>; Querystring: QueryOf<E>; Body: BodyOf<E> }>;

/**
 * What a handler gives back: the endpoint's response, or the reply it sent itself (a download, a
 * 204 without body, a redirect); the API tests check every answer against the endpoint anyway.
 */
export type EndpointHandler<E extends Endpoint> = (req: EndpointRequest<E>, reply: FastifyReply) => Promise<ResponseOut<E> | FastifyReply>;

/** What a route may add to its endpoint: a body limit, its own hooks or error handler (the intake's). */
export type RouteExtras = Pick<RouteShorthandOptions, 'bodyLimit' | 'onRequest' | 'onSend' | 'errorHandler'>;

/**
 * Registers the route of an endpoint object (src/api/<resource>/endpoints.ts): its method and
 * path, its params, query and JSON body checked by their zod schemas before the handler runs
 * (422 `validation_failed` naming each field, as `parse` does), its access (plugins/auth.ts) and
 * its response (plugins/contracts.ts) read from `config.endpoint`.
 */
export function route<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: EndpointHandler<E>, extras: RouteExtras = {}) {
  const schema = {
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(typeof endpoint.body === 'object' ? { body: endpoint.body } : {}),
  };
  app.withTypeProvider<ZodTypeProvider>().route({
    ...(extras as object),
    method: endpoint.method,
    url: endpoint.path,
    schema,
    config: { endpoint },
    handler: handler as unknown as (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}

/** The query string as sent, keys and repeats included: the lead grid's filters are named by the columns (`filter[nom]`, `in[x]`). */
export function rawQuery(req: FastifyRequest): Record<string, string | string[] | undefined> {
  return rawQueries.get(req) ?? {};
}
const rawQueries = new WeakMap<FastifyRequest, Record<string, string | string[] | undefined>>();

/**
 * Checks a request part with the endpoint's zod schema and hands the route its output. A missing
 * body is an empty object (its fields are then named), as the routes read it before.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    try {
      return { value: parse(schema, httpPart === 'body' && data === null ? {} : data) };
    } catch (error) {
      return { error: error as Error };
    }
  };

/** Keeps the query string as sent before the schema replaces it (see rawQuery). */
export function keepRawQuery(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    if (req.query && typeof req.query === 'object') rawQueries.set(req, req.query as Record<string, string | string[] | undefined>);
  });
}
