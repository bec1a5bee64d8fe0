// Writes login.<language>.html beside index.html: the same page with the sign-in screen already
// drawn in its root (src/views/auth/prerender.tsx, rendered by react-dom/server from the screen's
// own components and each language's catalog) and its stylesheets inline, so the browser paints
// the form from the HTML alone instead of after every script of the page has come and run; its
// scripts are asked for once that is painted (src/app/afterPaint.ts). The
// server sends it for /login in the visitor's language and allows the inline stylesheet by its hash
// (server/sign-in-page.ts); the client then renders the screen over it (src/main.tsx).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build as esbuild } from 'esbuild';
import { build } from 'vite';
import { writeCompressedCopies } from './precompress.mjs';
import { chunksFrom, SIGN_IN } from './preload-sign-in.mjs';

const ENTRY = 'src/views/auth/prerender.tsx';

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `html` with `from` replaced, which must be there once. */
function replaceOnce(html, from, to) {
  if (html.split(from).length !== 2) throw new Error(`prerender-sign-in: index.html has not exactly one ${from}`);
  return html.replace(from, () => to);
}

/** The stylesheets the sign-in screen's chunk and the chunks it imports load, in their order. */
const signInStylesheets = (bundle) => chunksFrom(bundle, [SIGN_IN]).flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]);

/**
 * Runs `consume` with the prerender module, built for Node in a folder of its own (inside the project,
 * so that it finds node_modules) that stays until `consume` is done: the catalogs load from it.
 */
async function withPrerender(root, consume) {
  await mkdir(join(root, 'node_modules/.cache'), { recursive: true });
  const outDir = mkdtempSync(join(root, 'node_modules/.cache/prerender-sign-in-'));
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      plugins: [react()],
      build: { ssr: ENTRY, outDir, emptyOutDir: true, rollupOptions: { output: { entryFileNames: 'prerender.mjs' } } },
    });
    return await consume(await import(pathToFileURL(join(outDir, 'prerender.mjs')).href));
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Writes the loader (src/app/afterPaint.ts) into assets/, named by its content's hash like Vite's files, and returns its path. */
async function writeLoader(dir) {
  const { outputFiles } = await esbuild({
    entryPoints: [fileURLToPath(new URL('../src/app/afterPaint.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2020',
    write: false,
  });
  const code = outputFiles[0].contents;
  const file = `assets/after-paint-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
  await writeFile(join(dir, file), code);
  await writeCompressedCopies(join(dir, file));
  return file;
}

export function prerenderSignIn() {
  let root;
  return {
    name: 'prerender-sign-in',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async writeBundle(options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('prerender-sign-in: no index.html in the bundle');
      const linked = /^\s*<link rel="stylesheet" crossorigin href="\/([^"]+)">\n/gm;
      const page = String(index.source);
      const sheets = new Set([...[...page.matchAll(linked)].map((m) => m[1]), ...signInStylesheets(bundle)]);
      const css = [...sheets].map((file) => String(bundle[file].source).trim()).join('\n');
      // The page's scripts are asked for by the loader once the form is painted (src/app/afterPaint.ts).
      const entry = /^\s*<script type="module" crossorigin src="([^"]+)"><\/script>\n/m;
      const preload = /^\s*<link rel="modulepreload" crossorigin href="([^"]+)">\n/gm;
      const loader = await writeLoader(options.dir);
      const tag = `<script defer src="/${loader}" data-entry="${entry.exec(page)?.[1]}" data-preload="${[...page.matchAll(preload)].map((m) => m[1]).join(' ')}"></script>`;
      const scripted = replaceOnce(page.replace(preload, '').replace(linked, ''), entry.exec(page)?.[0] ?? '<script type="module"', '');
      const styled = replaceOnce(scripted, '</title>', `</title>\n    <style>${css}</style>\n    ${tag}`);
      const pages = await withPrerender(root, ({ prerenderSignIn: render, languages }) =>
        Promise.all(languages.map(async (language) => ({ language, ...(await render(language)) }))),
      );
      await Promise.all(
        pages.map(async ({ language, title, markup }) => {
          let html = replaceOnce(styled, '<html lang="fr">', `<html lang="${language}">`);
          html = replaceOnce(html, /<title>[^<]*<\/title>/.exec(html)?.[0] ?? '<title>', `<title>${escapeHtml(title)}</title>`);
          html = replaceOnce(html, '<div id="root"></div>', `<div id="root">${markup}</div>`);
          const file = join(options.dir, `login.${language}.html`);
          await writeFile(file, html);
          await writeCompressedCopies(file);
        }),
      );
    },
  };
}
