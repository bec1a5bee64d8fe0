import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Landing } from '../../../src/api/contract/landings';
import type { BookType } from '../../../src/api/contract/leads';
import { fileColumns, type FileRow } from './file-columns';
import { sheetWriter } from './writers';

export interface EncoderSetup {
  type: BookType;
  landings: Landing[];
  title: string;
}

/** Writes an export file into its stream from batches of leads, each the JSON text of a FileRow[]. */
export interface SheetEncoder {
  rows(batch: string): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

export type ToEncoder = { batch: string } | { end: true };
type FromEncoder = { chunk: Uint8Array } | { ack: true } | { error: string };

/** Leads above which a file is encoded on a worker: smaller ones take a fraction of a second, which a worker's start would eat. */
const WORKER_FROM = 2000;

/**
 * The encoder of a file of `count` leads. PGlite runs on the main thread: a large file is encoded
 * on a worker thread, so that reading a batch and encoding the one before overlap (JSON parsing
 * and encoding were about 1.3 s of a 7 s, 100,000-lead csv export).
 */
export const sheetEncoder = (setup: EncoderSetup, out: Writable, count: number): SheetEncoder =>
  count > WORKER_FROM ? workerEncoder(setup, out) : inlineEncoder(setup, out);

/** Encodes on the calling thread; the worker runs this one too. */
export function inlineEncoder({ type, landings, title }: EncoderSetup, out: Writable): SheetEncoder {
  const columns = fileColumns(landings);
  const writer = sheetWriter(type, out, columns.header, title);
  return {
    rows: (batch) => writer.rows((JSON.parse(batch) as FileRow[]).map(columns.row)),
    end: () => writer.end(),
    abort: async () => undefined,
  };
}

// Bundled (dist-server/main.mjs), the worker is its sibling sheet-worker.mjs. From the sources
// (tsx, vitest) it is this folder's sheet-worker.ts, imported once tsx is registered in the worker
// (`--import tsx` in a worker's execArgv does not reach its entry module on Node 20).
const fromSources = import.meta.url.endsWith('.ts');
const workerUrl = new URL(fromSources ? './sheet-worker.ts' : './sheet-worker.mjs', import.meta.url);
const startWorker = (workerData: EncoderSetup) =>
  fromSources
    ? new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); })`, { eval: true, workerData })
    : new Worker(workerUrl, { workerData });

/** Encodes on a worker thread of its own; the file's bytes come back and go into `out` here. */
function workerEncoder(setup: EncoderSetup, out: Writable): SheetEncoder {
  const worker = startWorker(setup);
  const replies: Array<{ resolve(): void; reject(err: Error): void }> = [];
  let failure: Error | undefined;
  const fail = (err: Error) => {
    failure ??= err;
    for (const r of replies.splice(0)) r.reject(failure);
  };
  worker.on('message', (message: FromEncoder) => {
    if ('chunk' in message) out.write(message.chunk);
    else if ('ack' in message) replies.shift()?.resolve();
    else fail(new Error(message.error));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`export encoder exited (${code})`)));

  /** Sends a message; resolves once the worker has handled it (and its bytes are in `out`). */
  const send = (message: ToEncoder) => {
    if (failure) return Promise.reject(failure);
    const handled = new Promise<void>((resolve, reject) => replies.push({ resolve, reject }));
    worker.postMessage(message);
    return handled;
  };
  let previous: Promise<void> = Promise.resolve();

  return {
    // One batch in the worker while the caller reads the next one.
    async rows(batch) {
      await previous;
      if (out.writableNeedDrain) await once(out, 'drain');
      previous = send({ batch });
      previous.catch(() => undefined); // awaited by the next call or by end()
    },
    async end() {
      await previous;
      await send({ end: true });
      await worker.terminate();
    },
    async abort() {
      await worker.terminate();
    },
  };
}
