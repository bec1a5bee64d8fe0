// `npm start`: builds the front end when its sources changed since the last build, bundles the
// server (a quarter of a second), then runs it in the foreground.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildServer, serverEntry, serverEnv, serverNodeArgs } from './build-server.mjs';
import { runTogether } from './children.mjs';

const root = resolve(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const inputs = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'scripts/geodata.mjs',
  'scripts/precompress.mjs',
  'scripts/preload-sign-in.mjs',
  'scripts/prerender-sign-in.mjs',
  'package.json',
  'package-lock.json',
];

/** Newest modification time among the files the front-end build reads. */
function newestInput() {
  let newest = 0;
  for (const input of inputs) {
    const path = join(root, input);
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    if (!stat.isDirectory()) newest = Math.max(newest, stat.mtimeMs);
    else
      for (const entry of readdirSync(path, { recursive: true, withFileTypes: true }))
        if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

if (!existsSync(join(root, 'index.html'))) {
  console.log("Pas d'interface à construire (index.html absent) : seul /api sera servi.");
} else if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestInput()) {
  console.log("Construction de l'interface (vite build)…");
  const started = Date.now();
  const build = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error("La construction de l'interface a échoué.");
    process.exit(build.status ?? 1);
  }
  writeFileSync(stamp, new Date().toISOString());
  console.log(`Interface construite en ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

await buildServer();
for (const [name, value] of Object.entries(serverEnv)) process.env[name] ??= value;
runTogether([[...serverNodeArgs, serverEntry]], { cwd: root });
