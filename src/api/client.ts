/**
 * The HTTP client: ofetch on /api with the bearer token of the Admin-Token cookie, the 9,000,000 ms
 * timeout of docs/product.md §9, and every failure turned into an ApiError { status, code, message }.
 * Every call goes through `call(endpoint, { params, query, body })`, typed from the endpoint object
 * (src/api/<resource>/endpoints.ts): its answer is the endpoint's response.
 */
import { FetchError, ofetch } from 'ofetch';
import { pathOf, type BodyIn, type Endpoint, type ParamsIn, type QueryIn, type ResponseOf } from './endpoint';
import { readToken, userState } from '../state/user';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Codes after which the session is gone: the client signs out (docs/product.md §4). */
export const sessionEndedCodes = new Set(['token_expired', 'token_not_provided', 'token_invalid']);

let onSessionEnded: (error: ApiError) => void = () => {};
/** The app installs what happens when the session ends (sign out, message, go to /login). */
export function setSessionEndedHandler(fn: (error: ApiError) => void) {
  onSessionEnded = fn;
}

const fetcher = ofetch.create({
  baseURL: '/api',
  timeout: 9_000_000,
  retry: 0,
  onRequest({ options }) {
    const token = readToken();
    if (token) options.headers.set('Authorization', `Bearer ${token}`);
  },
});

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof FetchError) {
    const body = (error.data ?? {}) as Record<string, unknown>;
    const status = error.statusCode ?? 0;
    const code = typeof body.error === 'string' ? body.error : status ? `http_${status}` : 'network_error';
    const message = typeof body.message === 'string' ? body.message : error.message;
    return new ApiError(status, code, message, body);
  }
  return new ApiError(0, 'network_error', error instanceof Error ? error.message : String(error));
}

type Options = NonNullable<Parameters<typeof fetcher>[1]>;

/** The parts of a call its endpoint declares: path parameters, query (or the URLSearchParams of repeated keys), body. */
export type CallInput<E extends Endpoint> = ([keyof ParamsIn<E>] extends [never] ? { params?: undefined } : { params: ParamsIn<E> }) & {
  query?: QueryIn<E> | URLSearchParams;
  body?: BodyIn<E>;
  signal?: AbortSignal;
  /** Sees the answer's headers (a download's file name). */
  onResponse?: Options['onResponse'];
};

type Optional<E extends Endpoint> = [keyof ParamsIn<E>] extends [never] ? [input?: CallInput<E>] : [input: CallInput<E>];

/** Calls an endpoint: its path written with `params`, its method, and the answer as its response types it (a Blob for a file). */
export async function call<E extends Endpoint>(endpoint: E, ...[input]: Optional<E>): Promise<ResponseOf<E>> {
  const { params, query, body, signal, onResponse } = (input ?? {}) as CallInput<Endpoint> & { params?: Record<string, string | number> };
  let path = pathOf(endpoint.path, params).slice('/api'.length);
  if (query instanceof URLSearchParams) {
    const search = query.toString();
    if (search) path += `?${search}`;
  }
  const options: Options = {
    method: endpoint.method,
    signal,
    onResponse,
    ...(query && !(query instanceof URLSearchParams) ? { query: query as Record<string, unknown> } : {}),
    ...(body !== undefined ? { body: body as Options['body'] } : {}),
    ...(endpoint.response === 'file' ? { responseType: 'blob' as const } : {}),
  };
  try {
    return (await fetcher(path, options)) as ResponseOf<E>;
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status === 401 && sessionEndedCodes.has(apiError.code)) onSessionEnded(apiError);
    // REQUIRE_2FA: the session reaches only the enrolment until the account has a factor.
    if (apiError.status === 403 && apiError.code === 'enrolment_required') userState.enrolmentRequired = true;
    throw apiError;
  }
}
