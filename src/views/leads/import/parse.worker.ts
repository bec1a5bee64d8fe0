// The import's parsing worker: bytes in, { headers, rows } or a failure reason out, with progress.
import { parseFile, ParseError } from './parseFile';

export type WorkerOut =
  { type: 'progress'; done: number } | { type: 'done'; file: ReturnType<typeof parseFile> } | { type: 'error'; reason: ParseError['reason'] };

self.onmessage = (event: MessageEvent<ArrayBuffer>) => {
  const post = (msg: WorkerOut) => self.postMessage(msg);
  try {
    const file = parseFile(new Uint8Array(event.data), (done) => post({ type: 'progress', done }));
    post({ type: 'done', file });
  } catch (error) {
    post({ type: 'error', reason: error instanceof ParseError ? error.reason : 'unreadable' });
  }
};
