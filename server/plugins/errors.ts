import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError, conflict, databaseUnavailable, RETRY_AFTER_SECONDS, tooLarge } from '../errors';

/** How long the rest of a body refused for its size is read and dropped before the connection closes. */
const LINGER_MS = 2000;

/**
 * A body refused for its size is answered at once and no longer parsed. Its rest is read and
 * dropped (Node's server does so for an answered request it keeps alive) for a moment before the
 * connection closes: closing with unread bytes makes the system reset the connection, and a
 * client still sending then meets the reset, often before it has read the answer.
 */
function lingerThenClose(req: FastifyRequest, reply: FastifyReply) {
  reply.raw.once('finish', () => {
    if (req.raw.complete) return;
    const socket = req.raw.socket;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    req.raw.once('end', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
}

/** Every failure leaves as `{ error, message, …extras }` with its status; never a stack trace. */
export default fp(async function errors(app: FastifyInstance) {
  const send = (reply: FastifyReply, err: AppError) => {
    // A 503 says when to come back, unless its error already does.
    if (err.status === 503 && !('retry-after' in err.headers)) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return reply
      .status(err.status)
      .headers(err.headers)
      .send({ error: err.code, message: err.message, ...err.extras });
  };

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if ((err instanceof AppError ? err.status : err.statusCode) === 413) lingerThenClose(req, reply);
    if (err instanceof AppError) {
      if (err.status >= 500) req.log.error({ err }, err.message);
      return send(reply, err);
    }
    if (isDatabaseUnavailable(err)) {
      // Every request fails while the database restarts: a warning each, no stack; the error
      // level stays for faults of the code.
      req.log.warn({ code: err.code, reason: err.message }, 'database unavailable');
      return send(reply, databaseUnavailable());
    }
    if (err.code === '40P01' || err.code === '40001') {
      // Two transactions met on the same leads in opposite orders (two instances selling
      // overlapping selections): PostgreSQL rolled this one back whole; nothing half done.
      req.log.warn({ code: err.code }, 'transaction conflict');
      return send(reply, conflict("Une autre action sur les mêmes données était en cours : rien n'a été fait, réessayez"));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, tooLarge(req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit));
    }
    const known = fastifyErrors[err.code ?? ''];
    if (known) return reply.status(known.status).send({ error: known.error, message: known.message });
    if (err.validation) {
      return reply.status(422).send({ error: 'validation_failed', message: 'Merci de vérifier les champs', status: false });
    }
    if (err.statusCode && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ error: 'bad_request', message: 'Requête invalide' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'internal_error', message: 'Une erreur est survenue' });
  });

  app.setNotFoundHandler((req, reply) => reply.status(404).send({ error: 'not_found', message: `Aucune route ${req.method} ${req.url.split('?')[0]}` }));
});

/**
 * The French sentence the answer to `err` carries, for an answer that is not JSON (a landing
 * page's form post sent back to its page with `?error=`).
 */
export function messageOf(err: FastifyError | AppError, bodyLimit: number): string {
  if (err instanceof AppError) return err.message;
  if (isDatabaseUnavailable(err)) return databaseUnavailable().message;
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge(bodyLimit).message;
  const known = fastifyErrors[err.code ?? ''];
  if (known) return known.message;
  return err.statusCode && err.statusCode < 500 ? 'Requête invalide' : 'Une erreur est survenue';
}

const fastifyErrors: Record<string, { status: number; error: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, error: 'bad_request', message: "Le corps de la requête n'est pas un JSON valide" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, error: 'bad_request', message: 'Le corps de la requête est vide' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, error: 'bad_request', message: 'Type de contenu non pris en charge' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, error: 'bad_request', message: 'Longueur de contenu invalide' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, error: 'payload_too_large', message: 'Le fichier envoyé est trop volumineux' },
  // @fastify/multipart's limits (the Taboola upload): refused as the parts arrive.
  FST_PARTS_LIMIT: { status: 413, error: 'payload_too_large', message: 'Le formulaire envoyé a trop de parties' },
  FST_FILES_LIMIT: { status: 413, error: 'payload_too_large', message: 'Un seul fichier est accepté' },
  FST_FIELDS_LIMIT: { status: 413, error: 'payload_too_large', message: 'Le formulaire envoyé a trop de champs' },
  FST_PROTO_VIOLATION: { status: 400, error: 'bad_request', message: 'Nom de champ interdit dans le formulaire envoyé' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, error: 'bad_request', message: "Le formulaire envoyé n'est pas en multipart/form-data" },
  FST_INVALID_JSON_FIELD_ERROR: { status: 400, error: 'bad_request', message: "Un champ du formulaire envoyé n'est pas un JSON valide" },
  FST_MP_PREMATURE_CLOSE: { status: 400, error: 'bad_request', message: 'Le formulaire envoyé est incomplet' },
};
