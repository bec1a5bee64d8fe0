/** The theme colours offered by the picker and the palette. */
export const themeColours = ['#1f6feb', '#0e7490', '#15803d', '#7c3aed', '#c2410c', '#be123c', '#334155'];
