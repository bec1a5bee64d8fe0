/**
 * `ORDER BY ${frenchOrder('c.name')}`: names in French order ("Éco" before "Walk"), the order of
 * the browser's `compareNames` (src/shared/frenchOrder.ts). ICU's root collation, which French
 * follows: PGlite has it and no "fr-x-icu"; PostgreSQL has it when built with ICU (Debian's is).
 */
export const frenchOrder = (expr: string) => `${expr} COLLATE "und-x-icu"`;
