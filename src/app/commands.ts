/**
 * Loads every command declaration: each screen keeps its commands beside it, in
 * src/views/<screen>/<screen>.commands.ts, picked up here without editing this file. The shell
 * imports this module once.
 */
import.meta.glob('../views/**/*.commands.ts', { eager: true });
