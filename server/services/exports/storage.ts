import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/** A file being written: write into `stream`, then `finish()` publishes it, `abort()` drops it. */
export interface Upload {
  stream: Writable;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Where export files live. Keys are opaque ([A-Za-z0-9_-.]). The local folder is the default; an
 * S3-compatible store implements the same three calls (open = multipart upload fed by a
 * PassThrough, get = GetObject stream, remove = DeleteObject), so instances stay stateless.
 */
export interface ExportStorage {
  open(key: string): Promise<Upload>;
  get(key: string): Promise<{ body: Readable; size: number } | undefined>;
  remove(key: string): Promise<void>;
}

export const safeKey = (key: string) => {
  if (!/^[A-Za-z0-9_.-]{1,200}$/.test(key) || key.startsWith('.')) throw new Error(`invalid storage key ${key}`);
  return key;
};

/** Files under `dir` (DATA_DIR/exports), written to a .part file and renamed when complete. */
export function localStorage(dir: string): ExportStorage {
  return {
    async open(key) {
      await mkdir(dir, { recursive: true });
      const path = join(dir, safeKey(key));
      const part = `${path}.part`;
      const stream = createWriteStream(part);
      return {
        stream,
        async finish() {
          stream.end();
          await finished(stream);
          await rename(part, path);
        },
        async abort() {
          stream.destroy();
          await rm(part, { force: true });
        },
      };
    },
    async get(key) {
      const path = join(dir, safeKey(key));
      const info = await stat(path).catch(() => undefined);
      return info?.isFile() ? { body: createReadStream(path), size: info.size } : undefined;
    },
    async remove(key) {
      await rm(join(dir, safeKey(key)), { force: true });
    },
  };
}
