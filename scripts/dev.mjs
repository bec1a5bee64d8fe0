// `npm run dev`: the server (restarted by tsx when its files change) and Vite's dev server with
// hot reload, which proxies /api to it (vite.config.ts). Open http://localhost:5173.
import { join, resolve } from 'node:path';
import { runTogether } from './children.mjs';

const root = resolve(import.meta.dirname, '..');

runTogether([[join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', '--clear-screen=false', 'server/main.ts'], [join(root, 'node_modules/vite/bin/vite.js')]], {
  cwd: root,
});
