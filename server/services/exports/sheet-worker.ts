// Worker thread of sheet-encoder.ts: encodes the batches of leads it is sent (JSON text) and posts
// the file's bytes back, while the main thread reads the next batch from the database.
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { inlineEncoder, type EncoderSetup, type ToEncoder } from './sheet-encoder';

const port = parentPort!;
const out = new Writable({
  write(chunk: Buffer, _encoding, done) {
    const bytes = new Uint8Array(chunk); // a copy: the chunk may be a view of a shared pool
    port.postMessage({ chunk: bytes }, [bytes.buffer]);
    done();
  },
});
const encoder = inlineEncoder(workerData as EncoderSetup, out);

let work = Promise.resolve();
port.on('message', (message: ToEncoder) => {
  work = work
    .then(async () => {
      if ('batch' in message) await encoder.rows(message.batch);
      else {
        await encoder.end();
        await new Promise((resolve) => out.end(resolve));
      }
      port.postMessage({ ack: true });
    })
    .catch((err: unknown) => port.postMessage({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
});
