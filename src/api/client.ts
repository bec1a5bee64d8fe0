/**
 * The HTTP client: ofetch on /api with the bearer token of the Admin-Token cookie, the 9,000,000 ms
 * timeout of docs/product.md §9, and every failure turned into an ApiError { status, code, message }.
 * `api()` returns the envelope's `data`; `apiEnvelope()` the whole body when extras matter.
 */
import { FetchError, ofetch } from 'ofetch';
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

type Options = Parameters<typeof fetcher>[1];

export async function apiEnvelope<T>(path: string, options?: Options): Promise<T> {
  try {
    return (await fetcher(path, options)) as T;
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status === 401 && sessionEndedCodes.has(apiError.code)) onSessionEnded(apiError);
    // REQUIRE_2FA: the session reaches only the enrolment until the account has a factor.
    if (apiError.status === 403 && apiError.code === 'enrolment_required') userState.enrolmentRequired = true;
    throw apiError;
  }
}

export async function api<T>(path: string, options?: Options): Promise<T> {
  return (await apiEnvelope<{ data: T }>(path, options)).data;
}
