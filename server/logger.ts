import pino, { type Logger } from 'pino';

/** Strips credentials from logged URLs: a token sent in a query string is refused, never logged. */
const redactUrl = (url: string) => url.replace(/([?&]token=)[^&]*/gi, '$1[redacted]');

export function createLogger(level: string, enabled = true): Logger {
  return pino({
    level,
    enabled,
    serializers: {
      req: (req: { method: string; url: string; ip: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  });
}
