// Names the sign-in screen's chunks in index.html as module preloads. The router loads a screen
// only once the entry has run; a signed-out visitor (the sign-in page, where every session starts)
// then waited for a second round of requests. The sign-in screen's own chunk is a few kB; the
// react-aria fields and the API modules it shares with the console's screens are fetched early for
// a signed-in visitor too, who needs them next. Its stylesheet (1 kB) is left to the loader: it
// comes in the same round as the language's catalog, which the first render waits for anyway.
const SIGN_IN = /\/src\/views\/auth\/index\.tsx$/;

export function preloadSignIn() {
  return {
    name: 'preload-sign-in',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((f) => f.type === 'chunk');
        const signIn = chunks.find((c) => c.facadeModuleId && SIGN_IN.test(c.facadeModuleId));
        if (!signIn) throw new Error('preload-sign-in: no chunk for src/views/auth/index.tsx');
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const files = new Set();
        const visit = (chunk) => {
          if (files.has(chunk.fileName)) return;
          files.add(chunk.fileName);
          for (const name of chunk.imports) visit(byName.get(name));
        };
        visit(signIn);
        return [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' }));
      },
    },
  };
}
