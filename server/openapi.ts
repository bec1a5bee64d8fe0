import { z } from 'zod';
import type { Endpoint } from '../src/api/endpoint';
import type { OpenApiDocument } from '../src/api/openapi/endpoints';

/** A request or response schema as JSON Schema 2020-12 (OpenAPI 3.1's), the JSON as sent, before any transform. */
const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);

/** Fastify's ':id' becomes OpenAPI's '{id}'. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const errorBody = {
  type: 'object',
  required: ['error', 'message'],
  properties: { error: { type: 'string' }, message: { type: 'string', description: 'In French, for the user' } },
};

function parameters(endpoint: Endpoint) {
  const out: Record<string, unknown>[] = [];
  const params = endpoint.params ? jsonSchema(endpoint.params) : undefined;
  const paramProps = (params?.properties ?? {}) as Record<string, unknown>;
  for (const name of pathParams(endpoint.path)) out.push({ name, in: 'path', required: true, schema: paramProps[name] ?? { type: 'string' } });
  if (endpoint.query) {
    const query = jsonSchema(endpoint.query);
    const required = new Set((query.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((query.properties ?? {}) as Record<string, unknown>)) {
      out.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  return out;
}

function requestBody(endpoint: Endpoint) {
  const body = endpoint.body;
  if (body === undefined) return undefined;
  if (body === 'multipart') return { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } };
  if (body === 'form') {
    const form = { schema: { type: 'object', additionalProperties: { type: 'string' } } };
    return { required: true, content: { 'application/json': form, 'application/x-www-form-urlencoded': form, 'multipart/form-data': form } };
  }
  return { required: true, content: { 'application/json': { schema: jsonSchema(body) } } };
}

function responses(endpoint: Endpoint) {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: errorBody } } });
  const ok =
    endpoint.response === 'none'
      ? { '204': { description: 'No content' } }
      : endpoint.response === 'file'
        ? {
            '200': {
              description: 'The file',
              content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
            },
          }
        : 'eventStream' in endpoint.response
          ? {
              '200': {
                description: 'Server-sent events: `id:` the event id, `event:` its type, `data:` the event as JSON (this schema)',
                content: { 'text/event-stream': { schema: jsonSchema(endpoint.response.eventStream) } },
              },
            }
          : { '200': { description: 'OK', content: { 'application/json': { schema: jsonSchema(endpoint.response) } } } };
  return {
    ...ok,
    ...(endpoint.auth === 'public' ? {} : { '401': error('No valid bearer token') }),
    ...(endpoint.auth === 'admin' ? { '403': error('Not an administrator') } : {}),
    '422': error('A field is invalid: `errors` names each one'),
  };
}

/** The API's description, from the endpoint objects of every registered /api route. */
export function openApiDocument(endpoints: readonly Endpoint[], version: string): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const operation = {
      summary: endpoint.summary,
      // Admin endpoints are the administration area (docs/product.md §2): tagged, and only an admin's token opens them.
      tags: [endpoint.auth === 'admin' ? 'admin' : endpoint.auth],
      ...(endpoint.auth === 'public' ? { security: [] } : { security: [{ bearer: [] }], 'x-access': endpoint.auth }),
      parameters: parameters(endpoint),
      ...(requestBody(endpoint) ? { requestBody: requestBody(endpoint) } : {}),
      responses: responses(endpoint),
    };
    (paths[openApiPath(endpoint.path)] ??= {})[endpoint.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Console leads API', version, description: 'Every path answers JSON envelopes `{ data, …extras }` and fails with `{ error, message }`.' },
    servers: [{ url: '/' }],
    tags: [
      { name: 'public', description: 'No token' },
      { name: 'user', description: 'Any signed-in user' },
      { name: 'admin', description: 'Administration (docs/product.md §2): administrators only' },
    ],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token of POST /api/auth' } } },
    security: [{ bearer: [] }],
    paths,
  };
}
