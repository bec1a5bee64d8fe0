import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationFailed } from '../errors';
import { unstorableField, unstorableMessage } from './text-input';

/** Fields of a landing page's form: far more than any landing has, each far longer than a cell (5,000 characters). */
const MAX_FIELDS = 200;
const MAX_FIELD_BYTES = 64 * 1024;

const forbiddenName = () => new AppError(400, 'bad_request', 'Nom de champ interdit dans le formulaire envoyé');

/** A form's fields as a null-prototype record; a name given twice becomes a list (which no column takes). */
function fieldRecord(entries: Iterable<[string, string]>): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of entries) {
    if (name === '__proto__') throw forbiddenName();
    const seen = fields[name];
    fields[name] = seen === undefined ? value : [seen, value].flat();
  }
  return fields;
}

/**
 * The bodies a plain HTML `<form>` posts, beside JSON, in the scope of the routes that take them
 * (the intake): `application/x-www-form-urlencoded`, parsed at once (so the text check of
 * plugins/text-input.ts sees it), and `multipart/form-data`, read by `formFields`.
 */
export async function registerFormBodies(app: FastifyInstance) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, fieldRecord(new URLSearchParams(body as string)));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  await app.register(multipart, { limits: { fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, files: 1, fileSize: 1, parts: MAX_FIELDS + 1 } });
}

/** Whether the request's body came from a form rather than a script (JSON). */
export const isFormPost = (req: FastifyRequest) => req.isMultipart() || /^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '');

/** The body as a record of fields: a multipart form read whole (files refused), any other body as parsed. */
export async function formFields(req: FastifyRequest): Promise<unknown> {
  if (!req.isMultipart()) return req.body;
  const entries: Array<[string, string]> = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') throw new AppError(400, 'bad_request', "Ce formulaire n'accepte pas de fichier");
      if (part.valueTruncated) throw new AppError(413, 'payload_too_large', `Le champ ${part.fieldname.slice(0, 40)} est trop long`);
      entries.push([part.fieldname, String(part.value)]);
    }
  } catch (err) {
    // The multipart limits carry their status (errors plugin); the parser's own errors (a body
    // cut short, a broken part header) carry none.
    if (err instanceof AppError || (err as { statusCode?: number }).statusCode) throw err;
    throw new AppError(400, 'bad_request', 'Le formulaire envoyé est illisible (multipart mal formé)');
  }
  const fields = fieldRecord(entries);
  const field = unstorableField(fields);
  if (field !== undefined) throw validationFailed({ [field]: unstorableMessage });
  return fields;
}
