import { createContext, use } from 'react';

/**
 * True in the sign-in screen rendered at build time (prerender.tsx), which the page shows until the
 * client takes it over: its fields are read-only and its buttons disabled until then, so nothing is
 * typed into a field that React is about to replace, and the form is never sent by the browser itself.
 */
export const Prerendering = createContext(false);

export const usePrerendering = () => use(Prerendering);
