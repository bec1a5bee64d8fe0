import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

type RoutePlugin = (app: FastifyInstance) => Promise<void>;

/**
 * The server bundle has no server/routes/ folder to read: scripts/build-server.mjs defines the
 * list of its files at build time. Under tsx and vitest the folder itself is read.
 */
declare const SERVER_ROUTE_FILES: readonly string[] | undefined;

const isRouteFile = (name: string) => name.endsWith('.ts');

/**
 * Every file of server/routes/ is one resource's routes and default-exports its Fastify plugin:
 * found by name, so adding a resource edits no list. Anything else there stops the start-up.
 */
export async function routeModules(): Promise<RoutePlugin[]> {
  const files = typeof SERVER_ROUTE_FILES !== 'undefined' ? SERVER_ROUTE_FILES : readdirSync(join(import.meta.dirname, 'routes')).filter(isRouteFile);
  return Promise.all(
    [...files].sort().map(async (file) => {
      // A template import is a glob to esbuild: it bundles every file of the folder.
      const module = (await import(`./routes/${file.slice(0, -'.ts'.length)}.ts`)) as { default?: unknown };
      if (typeof module.default !== 'function')
        throw new Error(`server/routes/${file} must default-export its routes (a Fastify plugin); helpers live outside server/routes/`);
      return module.default as RoutePlugin;
    }),
  );
}
