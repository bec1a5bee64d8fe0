/** The error codes of docs/decisions.md §5; every failure a client sees carries one. */
export type ErrorCode =
  | 'bad_request'
  | 'invalid_credentials'
  | 'code_required'
  | 'code_invalid'
  | 'passkey_invalid'
  | 'enrolment_required'
  | 'token_not_provided'
  | 'token_expired'
  | 'token_invalid'
  | 'token_in_query'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'validation_failed'
  | 'rate_limited'
  | 'link_invalid'
  | 'taboola_error'
  | 'unavailable'
  | 'insufficient_storage'
  | 'internal_error';

/** A failure meant for the client: an HTTP status, a stable code and a French message. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extras: Record<string, unknown> = {},
    /** Headers of the answer (a 429's Retry-After). */
    readonly headers: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

export const notFound = (message = 'Ressource introuvable') => new AppError(404, 'not_found', message);
export const forbidden = (message = 'Accès réservé aux administrateurs') => new AppError(403, 'forbidden', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);

/** 422 with per-field messages, as the rule form expects (`status: false`). */
export const validationFailed = (errors: Record<string, string>, message = 'Merci de vérifier les champs') =>
  new AppError(422, 'validation_failed', message, { status: false, errors });

/** Seconds a client is told to wait (Retry-After) before trying again after a 503. */
export const RETRY_AFTER_SECONDS = 5;

/** The database cannot be reached (restarting, failing over): the client may send the request again shortly. */
export const databaseUnavailable = () =>
  new AppError(503, 'unavailable', 'La base de données est momentanément indisponible : réessayez dans quelques instants');

/** 413 naming the limit, in MB, of the route the body was sent to. */
export const tooLarge = (limitBytes: number) =>
  new AppError(413, 'payload_too_large', `Le contenu envoyé est trop volumineux (${Math.max(1, Math.round(limitBytes / (1024 * 1024)))} Mo au plus)`);
