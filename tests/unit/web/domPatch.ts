/**
 * Properties given to jsdom's prototypes or globals (sizes, observers it lacks), with what undoes
 * them: the jsdom files share one document (vitest.config.ts, `unit-dom`), and one file's layout
 * must not reach the next (a do-nothing ResizeObserver left by the palette's harness kept the
 * grid's columns from ever learning their width).
 */
export function patchDom(target: object, properties: Record<string, PropertyDescriptor>): () => void {
  const before = Object.keys(properties).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)] as const);
  for (const [key, descriptor] of Object.entries(properties)) Object.defineProperty(target, key, { configurable: true, ...descriptor });
  return () => {
    for (const [key, descriptor] of before) {
      if (descriptor) Object.defineProperty(target, key, descriptor);
      else delete (target as Record<string, unknown>)[key];
    }
  };
}
