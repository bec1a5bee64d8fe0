import { errorCodes, type FastifyInstance } from 'fastify';

/** Deeper than any contract's body by far; a walk of a deeper value (ours, zod's, JSON.stringify's) could overflow the stack. */
const MAX_DEPTH = 64;

/**
 * Whether arrays and objects nest deeper than `MAX_DEPTH` in a JSON text, brackets inside strings
 * aside; one pass, no recursion. Strings, most of an import's text, are skipped by indexOf to their
 * closing quote (a quote after an odd run of backslashes is escaped): twice as fast as reading
 * them a character at a time.
 */
export function nestsTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false; // unterminated: JSON.parse refuses it
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The API speaks JSON only. A body sent as text/plain (fetch's default for a string body; the
 * intake's landing pages use it to skip the CORS preflight) is read as JSON too, so malformed
 * JSON is always a 400, never a string handed to a schema; so is JSON nested too deep.
 */
export function registerJsonBody(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (req, body, done) => {
    if (nestsTooDeep(body as string)) return done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
    return parseJson(req, body as string, done);
  });
}
