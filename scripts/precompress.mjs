// Writes a brotli (.br) and a gzip (.gz) copy beside each text file of the build, at their
// strongest settings: the server sends them as they are by the request's Accept-Encoding
// (@fastify/static's preCompressed, server/app.ts), so no request pays for compressing them.
// Source maps are left out: only developer tools read them, compressed on the fly.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
const compressible = /\.(?:js|mjs|css|html|svg|json|txt)$/;

/** Writes `<path>.br` and `<path>.gz` beside the file. */
export async function writeCompressedCopies(path) {
  const source = await readFile(path);
  const [br, gzipped] = await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gz(source, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gzipped)]);
}

/** The Vite plugin: runs once the bundle is written. */
export function precompress() {
  return {
    name: 'precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const files = Object.values(bundle).filter((f) => compressible.test(f.fileName));
      // Read back as written: the file on disk is what the server sends (its source map comment included).
      await Promise.all(files.map((f) => writeCompressedCopies(join(options.dir, f.fileName))));
    },
  };
}
