import type { S3Client } from '@aws-sdk/client-s3';
import { PassThrough, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { forwardTo, safeKey, StorageError, type ExportStorage } from './storage';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  /** Absent: the SDK's default chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
}

/**
 * The SDK's errors carry the parsed answer of the service (a refused signature brings back the
 * access key id and the string signed), which the error log would print: only the name and message go on.
 */
const plainError =
  (operation: string) =>
  (err: unknown): never => {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    throw new StorageError(`S3 ${operation} : ${e.name ?? 'Error'} (${e.$metadata?.httpStatusCode ?? 'pas de réponse'}) ${e.message ?? ''}`.trim());
  };

/**
 * Export files as objects of one bucket, shared by every instance: a file written by one is
 * downloaded from any other. Streamed both ways, never held in memory whole.
 */
export function s3Storage(settings: S3Settings): ExportStorage {
  // The SDK is loaded at the first request to the bucket: loaded with the server, it held 3 MB of
  // heap and 10–13 MB of resident memory in every server, those that keep their files on disk too.
  let loaded: Promise<{ sdk: typeof import('@aws-sdk/client-s3'); Upload: typeof import('@aws-sdk/lib-storage').Upload; client: S3Client }> | undefined;
  const s3 = () =>
    (loaded ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([sdk, { Upload }]) => ({
      sdk,
      Upload,
      client: new sdk.S3Client({
        endpoint: settings.endpoint,
        region: settings.region,
        credentials: settings.credentials,
        forcePathStyle: settings.forcePathStyle,
      }),
    })));
  const Bucket = settings.bucket;
  const remove = async (key: string) => {
    const { sdk, client } = await s3();
    await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: safeKey(key) })).catch(plainError('DeleteObject'));
  };

  return {
    async open(key) {
      const { Upload, client } = await s3();
      const body = new PassThrough().on('error', () => undefined);
      // Parts of 5 MB (S3's minimum), two in flight: about 10 MB per export in memory, whatever its size.
      const upload = new Upload({ client, params: { Bucket, Key: safeKey(key), Body: body }, queueSize: 2 });
      const done = upload.done();
      // A failed upload stops reading `body`: destroyed, it lets the writer's stream discard the rest.
      done.catch(() => body.destroy());
      const stream = forwardTo(body);
      return {
        stream,
        async finish() {
          stream.end();
          await finished(stream);
          await done.catch(plainError('Upload'));
        },
        async abort() {
          // Also drops the parts of a multipart upload already sent (lib-storage's default).
          await upload.abort();
          stream.destroy();
          body.destroy(new Error('export abandonné'));
          if (
            await done.then(
              () => true,
              () => false,
            )
          )
            await remove(key);
        },
      };
    },

    async get(key) {
      const { sdk, client } = await s3();
      try {
        const res = await client.send(new sdk.GetObjectCommand({ Bucket, Key: safeKey(key) }));
        return { body: res.Body as Readable, size: res.ContentLength ?? 0 };
      } catch (err) {
        if (err instanceof sdk.NoSuchKey) return undefined;
        return plainError('GetObject')(err);
      }
    },

    remove,
    // The parts of an upload whose server died are the bucket's to drop: a lifecycle rule
    // (AbortIncompleteMultipartUpload) does it, see docs/operations.md.
    sweep: async () => 0,
  };
}
