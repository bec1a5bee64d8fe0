import pino, { type DestinationStream, type Logger } from 'pino';

/** Query parameters whose values say nothing about anyone (paging, order, the tab). */
const plainParams = new Set(['_limit', '_offset', '_sort', '_order', 'entry_status']);

/**
 * A URL as logged: the capability token of an export download link (`/api/exports/<token>/<file>`)
 * and the values of query parameters are redacted — a filter holds what was searched (a name, a
 * phone number), a cursor a lead's value, and a `token` parameter is refused but must not be kept
 * either. Parameter names stay, so that the request can still be read.
 */
export function redactUrl(url: string): string {
  const [path, query] = url.split(/\?(.*)/s);
  const safePath = path.replace(/^(\/api\/exports\/)[^/]+/, '$1[redacted]');
  if (query === undefined) return safePath;
  const params = query.split('&').map((pair) => {
    const [name] = pair.split('=', 1);
    return plainParams.has(name) || !pair.includes('=') ? pair : `${name}=[redacted]`;
  });
  return `${safePath}?${params.join('&')}`;
}

/** An address shown without its local part, so that a log names no one: 'a…@example.fr'. */
export const maskEmail = (email: string) => email.replace(/^(.)[^@]*@/, '$1…@');

/**
 * JSON lines to stdout (or `destination`). Lines of a request carry its `reqId` (Fastify's child
 * logger). Never logged: bodies, the Authorization header, database error details (a unique
 * violation's detail quotes the values).
 */
export function createLogger(level: string, enabled = true, destination?: DestinationStream): Logger {
  const options = {
    level,
    enabled,
    redact: { paths: ['req.headers.authorization', 'err.detail', 'err.internalQuery', 'err.parameters'], censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
