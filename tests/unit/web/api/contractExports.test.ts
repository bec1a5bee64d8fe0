// A contract exports only what some other file uses: a response type nobody imports is a second
// description of the API that nothing keeps true (issue 23 removed 29 of them).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

it('every export of a src/api contract is used by another file', () => {
  const files = ['src', 'server', 'tests', 'scripts'].flatMap((dir) => sources(join(root, dir)));
  const texts = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
  const unused: string[] = [];
  for (const contract of files.filter((f) => /src\/api\/[^/]+\/contract\.ts$/.test(f))) {
    for (const [, name] of texts.get(contract)!.matchAll(/^export (?:const|function|type|interface) (\w+)/gm)) {
      const word = new RegExp(`\\b${name}\\b`);
      if (![...texts].some(([file, text]) => file !== contract && word.test(text))) unused.push(`${relative(root, contract)}: ${name}`);
    }
  }
  expect(unused).toEqual([]);
});
