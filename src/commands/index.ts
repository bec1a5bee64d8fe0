/**
 * Loads every command declaration: each domain keeps its commands in
 * src/commands/<domain>.commands.ts (navigation, shell, leads, …), picked up here without
 * editing this file. The shell imports this module once.
 */
import.meta.glob('./*.commands.ts', { eager: true });
