/** The stores as the first jsdom file found them, as JSON: a module of its own, loaded once for all the files (sharedDocument.ts runs before each). */
export const firstStores: { saved?: { ui: string; user: string } } = {};
