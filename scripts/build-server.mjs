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
  // migrate.ts reads ./migrations/ next to the module that runs it.
  cpSync(join(root, 'server/db/migrations'), join(serverDir, 'migrations'), { recursive: true });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
