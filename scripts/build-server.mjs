// The server as `npm start` and the bench run it: server/main.ts bundled by esbuild into one ES
// module, packages left in node_modules, the SQL migrations copied beside it. Run through tsx's
// loader, the same server held ~90 MB more memory (the loader's thread, every module's source).
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const serverDir = join(root, 'dist-server');
export const serverEntry = join(serverDir, 'main.mjs');

/**
 * How the server's node runs, for `npm start` and the benches alike (docs/performance.md, "Custom
 * exports"). V8 compiles PGlite's WebAssembly (9 MB) twice, a quick first pass then an optimised
 * one, and kept both: compiled once, optimised (`--no-liftoff`), the server held 35 MB less, starts
 * 1–2 s of CPU later and exported no slower. glibc gives each thread that allocates (V8's compiler
 * and GC helpers) its own malloc arena, whose fragments stay resident: two arenas saved 90 MB of
 * the peak of a bench run of exports, one 20 MB more of the server's resident set. V8's compiler
 * allocates its zones in blocks of 8–32 kB: freed once PGlite is compiled (the process peaks at
 * 400–440 MB while it starts), they stayed in malloc's heap, 54 MB of it. Blocks of 8 kB and more
 * mapped on their own (`mmap_threshold`) go back to the system when freed: 11 MB, and the peak of
 * an export of 100,000 leads 354 → 313 MB, no slower (docs/performance.md). V8's young generation
 * grew to 16 MB semi-spaces (32 MB resident) in the server's thread and 8 MB in PGlite's: held to
 * 8 MB in both (the flag wins over a worker's own limits), 341 → 307 MB after pages and statistics,
 * an export's peak 371 → 345 MB.
 */
export const serverNodeArgs = ['--no-liftoff', '--max-semi-space-size=8'];
export const serverEnv = { MALLOC_ARENA_MAX: '1', GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=8192' };

export async function buildServer() {
  rmSync(serverDir, { recursive: true, force: true });
  await build({
    entryPoints: [join(root, 'server/main.ts')],
    outfile: serverEntry,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    // server/route-modules.ts imports every file of server/routes/ by name; the bundle has no folder to list.
    define: { SERVER_ROUTE_FILES: JSON.stringify(readdirSync(join(root, 'server/routes')).filter((f) => f.endsWith('.ts'))) },
  });
  // migrate.ts reads ./migrations/ next to the module that runs it, and openPglite starts
  // ./pglite-worker.mjs and its extensions (plain JavaScript, as tsx and vitest load them too).
  cpSync(join(root, 'server/db/migrations'), join(serverDir, 'migrations'), { recursive: true });
  for (const file of ['pglite-worker.mjs', 'pglite-extensions.mjs']) cpSync(join(root, 'server/db', file), join(serverDir, file));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
