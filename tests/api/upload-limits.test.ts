import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startServer, type TestServer } from './harness';
import { frenchErrorProblem } from './error-shape';

// Every upload route refuses a body beyond its limit with 413 and a French { error, message }:
// a declared length at once, before reading a byte of it; a body without one (chunked) as soon as
// the limit is passed, before parsing.

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer({ IMPORT_BODY_LIMIT_MB: 2 });
  token = await server.login(ADMIN.email, ADMIN.password);
});
afterAll(() => server.close());

interface Answer {
  status: number;
  body: { error?: string; message?: string };
  /** Bytes of the body the client had written when the answer came. */
  sent: number;
}

/**
 * Posts `chunks` with a declared length (`declare`, never reached) or chunked, waiting for the
 * socket as it fills, and stops writing when the answer comes.
 */
function send(path: string, opts: { headers: Record<string, string>; chunks: Buffer[]; declare?: number }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const req = httpRequest(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...opts.headers, ...(opts.declare !== undefined ? { 'content-length': String(opts.declare) } : {}) },
    });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as Answer['body'], sent });
        req.destroy();
      });
    });
    // The server may close the connection once it has answered: writing after that fails, harmlessly.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const write = async () => {
      for (const chunk of opts.chunks) {
        if (answered) return;
        sent += chunk.length;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r).once('close', r));
      }
      // A declared length is never reached: the answer must come without the rest of the body.
      if (opts.declare === undefined && !answered) req.end();
    };
    write().catch(reject);
  });
}

const MB = 1024 * 1024;
const chunksOf = (total: number, make: (i: number) => Buffer) => Array.from({ length: Math.ceil(total / (64 * 1024)) }, (_, i) => make(i));

function expect413(answer: Answer, message: RegExp) {
  expect(answer.status).toBe(413);
  expect(answer.body.error).toBe('payload_too_large');
  expect(answer.body.message).toMatch(message);
  expect(frenchErrorProblem(answer.body)).toBeUndefined();
}

describe('upload limits', () => {
  it('lead import (JSON, IMPORT_BODY_LIMIT_MB): a declared length beyond it is refused before the body is read', async () => {
    const answer = await send('/api/landings/1/import/excel', {
      headers: { 'content-type': 'application/json' },
      chunks: [Buffer.from('{"data":[')],
      declare: 3 * MB,
    });
    expect413(answer, /trop volumineux \(2 Mo au plus\)/);
    expect(answer.sent).toBeLessThan(1024);
  });

  it('lead import: a chunked body is cut as soon as it passes the limit, never parsed', async () => {
    const row = Buffer.from('{"nom":"Durand","telephone":"0612345678"},');
    const chunk = Buffer.concat(Array.from({ length: Math.floor((64 * 1024) / row.length) }, () => row));
    const answer = await send('/api/landings/1/import/excel', {
      headers: { 'content-type': 'application/json' },
      chunks: [Buffer.from('{"data":['), ...chunksOf(20 * MB, () => chunk)],
    });
    expect413(answer, /trop volumineux/);
    expect(answer.sent).toBeLessThan(20 * MB);
  });

  const boundary = 'x-limite-x';
  const part = (name: string, filename?: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
    );
  const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  const codes = '/api/taboola/campaigns/compte/campagne/codes';

  it('Taboola xlsx (multipart): a declared length beyond the form limit is refused before the body is read', async () => {
    const answer = await send(codes, { headers: multipart, chunks: [part('type'), Buffer.from('INCLUDE\r\n'), part('file', 'codes.xlsx')], declare: 50 * MB });
    expect413(answer, /trop volumineux \(6 Mo au plus\)/);
    expect(answer.sent).toBeLessThan(1024);
  });

  it('Taboola xlsx: a chunked file beyond 5 MB is cut as it arrives', async () => {
    const answer = await send(codes, {
      headers: multipart,
      chunks: [part('type'), Buffer.from('INCLUDE\r\n'), part('file', 'codes.xlsx'), ...chunksOf(20 * MB, () => Buffer.alloc(64 * 1024, 7))],
    });
    expect413(answer, /fichier envoyé est trop volumineux/);
    expect(answer.sent).toBeLessThan(20 * MB);
  });

  it('Taboola xlsx: a typed list beyond its field limit, or a second file, is refused, never cut silently', async () => {
    const long = await send(codes, {
      headers: multipart,
      chunks: [
        part('type'),
        Buffer.from('INCLUDE\r\n'),
        part('codes'),
        ...chunksOf(2 * MB, () => Buffer.from('30000,'.repeat(10_000))),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ],
    });
    expect413(long, /champ codes est trop long/);
    const twoFiles = await send(codes, {
      headers: multipart,
      chunks: [part('file', 'a.xlsx'), Buffer.from('PK\r\n'), part('file', 'b.xlsx'), Buffer.from('PK\r\n'), Buffer.from(`--${boundary}--\r\n`)],
    });
    expect413(twoFiles, /Un seul fichier/);
  });

  it('Taboola xlsx: a malformed or truncated form is a 400 in French, not a 500', async () => {
    const cut = await send(codes, { headers: multipart, chunks: [part('type'), Buffer.from('INCL')] });
    expect(cut.status).toBe(400);
    expect(frenchErrorProblem(cut.body)).toBeUndefined();
    const noBoundary = await send(codes, { headers: { 'content-type': 'multipart/form-data' }, chunks: [Buffer.from('type=ALL')] });
    expect(noBoundary.status).toBeLessThan(500);
    expect(noBoundary.status).toBeGreaterThanOrEqual(400);
    expect(frenchErrorProblem(noBoundary.body)).toBeUndefined();
  });

  it('any other route: JSON beyond BODY_LIMIT_MB is refused by its declared length, and multipart is not taken', async () => {
    const json = await send('/api/customers', { headers: { 'content-type': 'application/json' }, chunks: [Buffer.from('{"name":"')], declare: 2 * MB });
    expect413(json, /trop volumineux \(1 Mo au plus\)/);
    const form = await send('/api/customers', { headers: multipart, chunks: [part('name'), Buffer.from(`Durand\r\n--${boundary}--\r\n`)] });
    expect(form.status).toBe(415);
    expect(frenchErrorProblem(form.body)).toBeUndefined();
  });
});
