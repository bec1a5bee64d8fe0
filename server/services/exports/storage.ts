import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { AppError } from '../../errors';

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
 * A store that cannot write (disk full, folder refused, object storage unreachable) throws a
 * StorageError from `open` or `finish`.
 */
export interface ExportStorage {
  open(key: string): Promise<Upload>;
  get(key: string): Promise<{ body: Readable; size: number } | undefined>;
  remove(key: string): Promise<void>;
  /** Drops the unfinished files of writers that died (a crash) untouched for `ms`; answers how many. */
  sweep(ms: number): Promise<number>;
}

/** The export store refused to write; `code` is the system's (ENOSPC, EACCES…) when there is one. */
export class StorageError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }

  /** A getter, not a field: the error keeps no enumerable property for a log to print. */
  get code(): string | undefined {
    return (this.cause as { code?: string } | undefined)?.code;
  }
}

const noSpace = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * The answer to a failed write of an export file, `outcome` saying what became of the leads:
 * 507 when the disk (or quota) is full, else 503, the store being unavailable. Either way a
 * message an administrator can act on, never a 500.
 */
export function storageFailure(err: StorageError, outcome: string): AppError {
  return err.code && noSpace.has(err.code)
    ? new AppError(
        507,
        'insufficient_storage',
        `Espace disque insuffisant pour écrire le fichier d'export : ${outcome} Libérez de la place sur le serveur ou prévenez un administrateur.`,
      )
    : new AppError(
        503,
        'unavailable',
        `Le stockage des fichiers d'export est indisponible : ${outcome} Réessayez dans quelques instants ou prévenez un administrateur.`,
      );
}

export const safeKey = (key: string) => {
  if (!/^[A-Za-z0-9_.-]{1,200}$/.test(key) || key.startsWith('.')) throw new Error(`invalid storage key ${key}`);
  return key;
};

/**
 * What a writer writes into: chunks go on to `target` with its back-pressure, and this stream
 * never fails. Once `target` has failed (destroyed), what follows is discarded, so no write waits
 * forever for a 'drain', and the store's finish() reports the failure.
 */
export function forwardTo(target: Writable): Writable {
  return new Writable({
    write(chunk, encoding, callback) {
      if (target.destroyed) return callback();
      if (target.write(chunk, encoding)) return callback();
      const resume = () => {
        target.off('drain', resume).off('close', resume);
        callback();
      };
      target.on('drain', resume).on('close', resume);
    },
    final(callback) {
      target.end();
      callback();
    },
  });
}

/** Files under `dir` (DATA_DIR/exports), written to a .part file and renamed when complete. */
export function localStorage(dir: string): ExportStorage {
  const failed = (err: unknown): never => {
    throw new StorageError(`Écriture du fichier d'export impossible : ${(err as Error).message}`, err);
  };
  return {
    async open(key) {
      await mkdir(dir, { recursive: true }).catch(failed);
      const path = join(dir, safeKey(key));
      const part = `${path}.part`;
      const file = createWriteStream(part);
      // A full disk fails a write long after it was handed over: heard here (an 'error' event
      // unheard stops the process), reported by finish().
      file.on('error', () => undefined);
      const stream = forwardTo(file);
      return {
        stream,
        async finish() {
          stream.end();
          await finished(stream);
          await finished(file).catch(failed);
          await rename(part, path).catch(failed);
        },
        async abort() {
          stream.destroy();
          file.destroy();
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
    async sweep(ms) {
      const parts = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.part'));
      let removed = 0;
      for (const part of parts) {
        const info = await stat(join(dir, part)).catch(() => undefined);
        if (!info || Date.now() - info.mtimeMs < ms) continue;
        await rm(join(dir, part), { force: true });
        removed++;
      }
      return removed;
    },
  };
}
