// The browser's copy of the API's declarations (src/api/*/endpoints.ts): the client calls an
// endpoint by its method and path, and reads of its answer only whether it is a file; the zod
// schemas of its parameters, body and answer, and its summary, serve the server and its
// description alone. Each `defineEndpoint({…})` keeps its method, its path and an answer named by
// a string ('file', 'none'), and no longer holds the contracts' schemas, which the build then
// leaves out wherever nothing else of the browser's code uses them (vite.config.ts marks zod's
// builders as free of side effects). The server and the tests read the declarations whole.
import MagicString from 'magic-string';

const KEPT = new Set(['method', 'path']);
const isString = (node) => node.type === 'Literal' && typeof node.value === 'string';
const keep = (p) => p.type === 'Property' && !p.computed && (KEPT.has(p.key.name) || (p.key.name === 'response' && isString(p.value)));

function* calls(node) {
  if (!node || typeof node.type !== 'string') return;
  if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'defineEndpoint') yield node;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const child of value) yield* calls(child);
    else if (value && typeof value === 'object') yield* calls(value);
  }
}

/** @returns {import('vite').Plugin} */
export function clientEndpoints() {
  return {
    name: 'client-endpoints',
    apply: 'build',
    transform: {
      filter: { id: /\/src\/api\/[^/]+\/endpoints\.ts$/ },
      handler(code) {
        const s = new MagicString(code);
        for (const call of calls(this.parse(code))) {
          const [declared] = call.arguments;
          if (declared?.type !== 'ObjectExpression') throw new Error(`defineEndpoint expects an object literal: ${code.slice(call.start, call.end)}`);
          const kept = declared.properties.filter(keep).map((p) => code.slice(p.start, p.end));
          s.overwrite(declared.start, declared.end, `{ ${kept.join(', ')} }`);
        }
        return { code: s.toString(), map: s.generateMap({ hires: true }) };
      },
    },
  };
}
