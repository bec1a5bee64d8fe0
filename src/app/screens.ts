/**
 * Loads every screen declaration: each screen declares itself once, in
 * src/views/<screen>/<screen>.screen.ts (see src/commands/screens.ts), picked up here without
 * editing this file. The declarations are small; each screen's component loads lazily.
 */
import.meta.glob('../views/*/*.screen.ts', { eager: true });

export { allScreens, publicScreens } from '../commands/screens';
