import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { conflict } from '../../errors';
import type { ExportStorage } from '../exports/storage';

/**
 * An archive file: gzip of JSON lines, one per lead, `{ lead, lead_sales, lead_routings,
 * deliveries, webhook_held }` (each row as `to_jsonb` wrote it, every column and its exact value).
 * Written batch by batch with the gzip stream's back-pressure; answers the file's size in bytes.
 */
export async function writeArchive(storage: ExportStorage, key: string, batches: AsyncIterable<string[]>): Promise<number> {
  const upload = await storage.open(key);
  const gzip = createGzip();
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  const piped = pipeline(gzip, counted, upload.stream, { end: false });
  try {
    for await (const lines of batches) {
      if (!gzip.write(lines.join('\n') + '\n')) await once(gzip, 'drain');
    }
    gzip.end();
    await piped;
    await upload.finish();
    return bytes;
  } catch (err) {
    gzip.destroy();
    await piped.catch(() => undefined);
    await upload.abort();
    throw err;
  }
}

/**
 * The leads of an archive file, `size` at a time, each line parsed. A file missing or damaged
 * (not gzip, a line cut short) is a 409 naming it: nothing of its month is restored.
 */
export async function* readArchive<T>(storage: ExportStorage, key: string, size: number): AsyncGenerator<T[]> {
  const unreadable = (err?: unknown) =>
    conflict(`Le fichier d'archive ${key} est manquant ou illisible, rien n'a été restauré${err instanceof Error ? ` : ${err.message}` : '.'}`);
  const file = await storage.get(key);
  if (!file) throw unreadable();
  const gunzip = createGunzip();
  file.body.on('error', (err) => gunzip.destroy(err));
  file.body.pipe(gunzip);
  let batch: T[] = [];
  const lines = createInterface({ input: gunzip, crlfDelay: Infinity })[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = await lines.next();
      if (!next.done && next.value) batch.push(JSON.parse(next.value) as T);
    } catch (err) {
      file.body.destroy();
      throw unreadable(err);
    }
    if (batch.length === size || (next.done && batch.length)) {
      yield batch;
      batch = [];
    }
    if (next.done) return;
  }
}
