/**
 * Loads every command declaration: the screens' navigation commands (./screens), the grids' keys
 * (grid.commands.ts), then each screen's own commands, kept beside it in
 * src/views/<screen>/<screen>.commands.ts and picked up here without editing this file. The
 * router loads this module with the shell.
 */
import './screens';
import '../grid/grid.commands';

import.meta.glob('../views/**/*.commands.ts', { eager: true });
