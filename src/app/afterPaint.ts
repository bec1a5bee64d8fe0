/**
 * The loader of the prerendered sign-in page (scripts/prerender-sign-in.mjs), a classic deferred
 * script: the page is drawn from its HTML alone, so its scripts are asked for once that first frame
 * is painted, instead of sharing the connection with it. Its own tag names them: `data-entry` (the
 * entry module) and `data-preload` (the modules the entry and the sign-in screen import).
 */
export function loadAfterPaint(tag: HTMLScriptElement) {
  const preloads = tag.dataset.preload?.split(' ').filter(Boolean) ?? [];
  // Starting a request costs the page 1–2 ms (5–9 ms on Lighthouse's phone): three at a time, each
  // slice a task of its own well under the 50 ms that counts as blocking.
  const preloadSome = () => {
    for (const href of preloads.splice(0, 3)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    if (preloads.length > 0) setTimeout(preloadSome);
  };
  const load = () => {
    const entry = document.createElement('script');
    entry.type = 'module';
    entry.crossOrigin = '';
    entry.src = tag.dataset.entry!;
    document.head.append(entry);
    setTimeout(preloadSome);
  };
  // A tab opened in the background paints no frame until shown: its scripts come meanwhile.
  if (document.visibilityState === 'hidden') load();
  else requestAnimationFrame(() => setTimeout(load));
}

if (document.currentScript instanceof HTMLScriptElement) loadAfterPaint(document.currentScript);
