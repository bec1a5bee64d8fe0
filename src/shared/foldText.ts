/**
 * Text as a search compares it: lower case, accents dropped ("regles" finds "Règles", "herault"
 * Hérault). The palette, the lists' filters, the map's departments, the import's column names
 * and the delivery engine's buyer names all compare through it.
 */
export const foldText = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
