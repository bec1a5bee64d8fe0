import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { departmentsGeodata } from './scripts/geodata.mjs';

// Five suites: unit (node) and unit-dom (the files that declare a document, `// @vitest-environment
// jsdom`: React components and the interface's stores), api (the real server on PGlite, or on
// PostgreSQL when TEST_DATABASE_URL is set), load (load and faults, `npm run test:load`) and e2e
// (the built app in Debian's Chromium).
const unitDir = new URL('./tests/unit/', import.meta.url);
const unitFilesWithDocument = readdirSync(unitDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file) && readFileSync(new URL(file, unitDir), 'utf8').includes('@vitest-environment jsdom'))
  .map((file) => `tests/unit/${file}`);

export default defineConfig({
  plugins: [react(), departmentsGeodata()],
  test: {
    projects: [
      {
        extends: true,
        // The node files share one process and its loaded modules (isolate: false): loading them
        // again for each file took more of a core than their tests.
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          exclude: unitFilesWithDocument,
          environment: 'node',
          isolate: false,
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        // The files share one document and their modules, as the node files do; what one leaves in
        // the stores, the storage or the page is put back before the next (sharedDocument.ts).
        // jsdom suites share two cores with the API suite in `npm test`: 5 s was too tight for the palette's.
        test: {
          name: 'unit-dom',
          include: unitFilesWithDocument,
          setupFiles: ['tests/unit/web/sharedDocument.ts'],
          isolate: false,
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        // Every file's in-memory database starts from one migrated once (tests/api/migrated-image.ts).
        // The files share one process and its loaded modules (isolate: false): a fresh process per
        // file loaded the server's modules and PGlite again, about 4.5 s of a core per file, more
        // than most files' tests take. Each file starts its own server and database all the same.
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/api/migrated-image.ts'],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        // `npm run test:load`: minutes of load and crashes on real processes, never part of `npm test`.
        test: { name: 'load', include: ['tests/load/**/*.test.ts'], testTimeout: 900_000, hookTimeout: 300_000, fileParallelism: false },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // The demo seeded once for every file (tests/e2e/demo-data.ts).
          globalSetup: ['tests/e2e/demo-data.ts'],
          // One process for the files, one after the other, with the server's modules loaded once
          // and one Chromium (tests/e2e/harness.ts): about 5 s of a core less per file.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // vitest's default of 1 s is shorter than a list takes to load on a loaded machine (a
          // sessions list polled for its two rows failed so under a 3x CPU throttle).
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
