import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { validationFailed } from '../errors';

/**
 * A NUL character or a lone UTF-16 surrogate: PostgreSQL stores neither in text or jsonb. With the
 * `u` flag a surrogate pair is one code point (an emoji), so `\p{Cs}` matches lone halves only.
 */
const unstorable = /[\0\p{Cs}]/u;
const unstorableAll = new RegExp(unstorable.source, 'gu');
export const unstorableMessage = 'Caractère interdit : caractère nul ou Unicode invalide';

/** The first field (`a.0.b`, as `parse()` names them) holding an unstorable key or string, if any. */
export function unstorableField(value: unknown): string | undefined {
  const path = unstorablePath(value);
  return path && (path.reverse().join('.') || '_');
}

/**
 * Parsed JSON and query strings are plain objects (the query parser's have a prototype without
 * one) and arrays; anything else (a multipart file's stream or buffer) is not text a client
 * typed, and may hold cycles.
 */
const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
};

/** The path to the first unstorable text, innermost first; built only when one is found (imports hold millions of cells). */
function unstorablePath(value: unknown): string[] | undefined {
  if (typeof value === 'string') return unstorable.test(value) ? [] : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (!Array.isArray(value) && !isPlain(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const path = unstorablePath(value[i]);
      if (path) return path.concat(String(i));
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    // The key is echoed as the field's name, made printable and well-formed.
    if (unstorable.test(key)) return [key.replace(unstorableAll, '\uFFFD')];
    const path = unstorablePath((value as Record<string, unknown>)[key]);
    if (path) return path.concat(key);
  }
  return undefined;
}

/**
 * Every text an /api route receives — path parameters, query string, JSON body, at any depth,
 * keys included — is checked here once, before any route reads it: 422 naming the field instead
 * of the 500 PostgreSQL's refusal would give, whatever route or service the text goes to.
 */
export default fp(async function textInput(app: FastifyInstance) {
  app.addHook('preValidation', async (req) => {
    if (!req.url.startsWith('/api/')) return;
    for (const part of [req.params, req.query, req.body]) {
      const field = unstorableField(part);
      if (field !== undefined) throw validationFailed({ [field]: unstorableMessage });
    }
  });
});
