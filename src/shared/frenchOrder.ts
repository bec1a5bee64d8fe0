/**
 * Names in French order: accents and case second to the letters ("eco", "Éco", "ecole", "École",
 * "Walk"), never after "Z" as in code-point order. The grid sorts with it; the server orders names
 * with `COLLATE "und-x-icu"` (server/db/french-order.ts), ICU's root order, which French follows
 * and both PGlite and PostgreSQL have (PGlite has no "fr-x-icu"), so lists, selects and the
 * palette, which keep the API's order, show the same. tests/api/french-order.test.ts checks they agree.
 */
const collator = new Intl.Collator('fr');

export const compareNames = (a: string, b: string): number => collator.compare(a, b);
