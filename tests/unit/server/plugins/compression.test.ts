import { describe, expect, it } from 'vitest';
import { COMPRESSIBLE } from '../../../../server/plugins/compression';

describe('the content types compressed', () => {
  it('are text the server writes: JSON, problem details, html, css, scripts, csv, svg', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/problem+json',
      'text/html; charset=utf-8',
      'text/css',
      'text/javascript',
      'application/javascript',
      'text/csv; charset=utf-8',
      'text/plain',
      'image/svg+xml',
    ])
      expect([type, COMPRESSIBLE.test(type)]).toEqual([type, true]);
  });

  it('never a server-sent event stream, nor a file compressed already or opaque', () => {
    for (const type of [
      'text/event-stream',
      'text/event-stream; charset=utf-8',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/zip',
      'application/gzip',
      'application/pdf',
      'application/octet-stream',
      'image/png',
      'font/woff2',
    ])
      expect([type, COMPRESSIBLE.test(type)]).toEqual([type, false]);
  });
});
