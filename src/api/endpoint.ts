import type { z } from 'zod';

/** Who may call an endpoint: anyone, any signed-in user, or an administrator. */
export type Access = 'public' | 'user' | 'admin';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'OPTIONS';

/** A text/event-stream answer (server-sent events) whose every event's `data:` is one `event` JSON. */
export interface EventStreamSpec {
  eventStream: z.ZodType;
}

/**
 * What an endpoint answers: a zod schema of its JSON body, 'file' for a download, 'none' for an
 * answer without a body (a 204), an event stream. A route answering otherwise fails every API test (contract_drift).
 */
export type ResponseSpec = z.ZodType | 'file' | 'none' | EventStreamSpec;

/**
 * The body it reads: a zod schema of its JSON, 'multipart' for a form with a file (read by the
 * route part by part), 'form' for the public intake (JSON, url-encoded or multipart, checked
 * against the landing's own columns).
 */
export type BodySpec = z.ZodType | 'multipart' | 'form';

/** One route of the API, declared once: the server registers it from this, the client calls it through it. */
export interface Endpoint {
  method: Method;
  /** The full path, Fastify's syntax: '/api/customers/:id'. */
  path: `/api/${string}`;
  auth: Access;
  /** Reachable by a signed-in account that REQUIRE_2FA holds at enrolment (its factors, sign-out). */
  enrolment?: true;
  /** The path parameters; by default each ':name' of the path, a string. */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: BodySpec;
  response: ResponseSpec;
  /** One line for the API's description (GET /api/openapi.json). */
  summary: string;
}

/** Declares an endpoint, keeping its literal types (method, path, schemas) for the server and the client. */
export const defineEndpoint = <const E extends Endpoint>(endpoint: E): E => endpoint;

type PathKeys<P extends string> = P extends `${string}:${infer Key}/${infer Rest}`
  ? Key | PathKeys<`/${Rest}`>
  : P extends `${string}:${infer Key}`
    ? Key
    : never;

/** The path parameters as the server reads them: the params schema's output, else a string per ':name'. */
export type ParamsOf<E extends Endpoint> = E['params'] extends z.ZodType ? z.output<E['params']> : { [K in PathKeys<E['path']>]: string };

/** The path parameters as the client gives them: numbers are written as they are. */
export type ParamsIn<E extends Endpoint> = { [K in PathKeys<E['path']>]: string | number };

export type QueryOf<E extends Endpoint> = E['query'] extends z.ZodType ? z.output<E['query']> : Record<string, never>;
export type QueryIn<E extends Endpoint> = E['query'] extends z.ZodType ? z.input<E['query']> : never;

export type BodyOf<E extends Endpoint> = E['body'] extends z.ZodType ? z.output<E['body']> : unknown;
export type BodyIn<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : E['body'] extends 'multipart' ? FormData : never;

/** What the route sends (before the client reads it): the response schema's input. */
export type ResponseOut<E extends Endpoint> = E['response'] extends z.ZodType ? z.input<E['response']> : never;
/** What the client receives. */
export type ResponseOf<E extends Endpoint> = E['response'] extends z.ZodType ? z.output<E['response']> : E['response'] extends 'file' ? Blob : undefined;

/** The path with its parameters written in, each encoded. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`${path}: parameter ${key} missing`);
    return encodeURIComponent(String(value));
  });
}
