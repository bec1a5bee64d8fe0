/**
 * The browser suite's global setup: seeds the demo (20,000 leads, exports and their files) once
 * into a PGlite data folder and starts the server on it once (`firstStart`), which each test
 * file's `startApp` copies and boots on, instead of every file doing it again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { firstStart } from '../support/first-start';
import { seedProcess } from '../support/seed-process';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded data folder (DATA_DIR) to copy; never opened by a test itself. */
    e2eDemoDataDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'lead-console-e2e-demo-'));
  await seedProcess({ DATA_DIR: dataDir });
  await firstStart(dataDir);
  project.provide('e2eDemoDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
