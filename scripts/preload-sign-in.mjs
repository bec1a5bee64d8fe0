// Names the chunks of the app's start (src/main.tsx, src/app/App.tsx and router.tsx import them apart
// so that their modules are evaluated in tasks of their own) and of the sign-in screen in index.html
// as module preloads. The router loads a screen only once the entry has run; a signed-out visitor
// (the sign-in page, where every session starts) then waited for a second round of requests. The
// sign-in screen's own chunk is a few kB; the react-aria fields and the API modules it shares with
// the console's screens are fetched early for a signed-in visitor too, who needs them next. Its
// stylesheet (1 kB) is left to the loader on index.html: it comes in the same round as the
// language's catalog, which the first render waits for anyway (login.<language>.html has it inline).
export const SIGN_IN = /\/src\/views\/auth\/index\.tsx$/;
// What src/main.tsx imports apart (React, zod's configuration, react-aria's locale, the app), the
// routes App.tsx imports apart, and the sign-in screen (tests/e2e/web-delivery.test.ts fails if
// the sign-in page loads a script not named here).
const SIGN_IN_PATH = [
  /\/node_modules\/react\/index\.js$/,
  /\/node_modules\/react-dom\/client\.js$/,
  /\/src\/api\/zodConfig\.ts$/,
  /\/node_modules\/react-aria\/dist\/exports\/I18nProvider\.mjs$/,
  /\/src\/app\/App\.tsx$/,
  /\/src\/app\/router\.tsx$/,
  SIGN_IN,
];

/** The chunks of the bundle that the chunks of these modules are or import, each once, in the order reached. */
export function chunksFrom(bundle, modules) {
  const chunks = Object.values(bundle).filter((f) => f.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const reached = new Map();
  const visit = (chunk) => {
    if (reached.has(chunk.fileName)) return;
    reached.set(chunk.fileName, chunk);
    for (const name of chunk.imports) visit(byName.get(name));
  };
  for (const module of modules) {
    const chunk = chunks.find((c) => c.facadeModuleId && module.test(c.facadeModuleId));
    if (!chunk) throw new Error(`sign-in: no chunk for ${module}`);
    visit(chunk);
  }
  return [...reached.values()];
}

export function preloadSignIn() {
  return {
    name: 'preload-sign-in',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return chunksFrom(bundle ?? {}, SIGN_IN_PATH)
          .map((chunk) => chunk.fileName)
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' }));
      },
    },
  };
}
