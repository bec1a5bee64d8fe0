import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Unit tests mirror the source tree (docs/architecture.md, "Tests"): a test of src/<folder>/x.ts
// is tests/unit/web/<folder>/x.test.ts, one of server/<folder>/x.ts tests/unit/server/<folder>/x.test.ts.
// This file is the one test allowed directly in tests/unit/: it checks the tree, not a source file.

const root = join(import.meta.dirname, '../..');
const unit = join(root, 'tests/unit');
const sides = { web: 'src', server: 'server' } as const;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
const isTest = (path: string) => /\.test\.tsx?$/.test(path);

describe('unit tests', () => {
  it('sit in tests/unit/web (tests of src/) or tests/unit/server (tests of server/), never loose in tests/unit/', () => {
    const loose = filesUnder(unit)
      .filter(isTest)
      .map((path) => relative(unit, path))
      .filter((path) => path !== 'layout.test.ts' && !Object.keys(sides).includes(path.split('/')[0]!));
    expect(loose, 'move them under tests/unit/web/ or tests/unit/server/, in the folder of what they test').toEqual([]);
  });

  it('are in a folder that mirrors one of the source tree', () => {
    const strays = Object.entries(sides).flatMap(([side, source]) =>
      filesUnder(join(unit, side))
        .filter(isTest)
        .map((path) => relative(join(unit, side), dirname(path)))
        .filter((folder) => !statSync(join(root, source, folder), { throwIfNoEntry: false })?.isDirectory())
        .map((folder) => `tests/unit/${side}/${folder} (no ${source}/${folder})`),
    );
    expect([...new Set(strays)]).toEqual([]);
  });
});
