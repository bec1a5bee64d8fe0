import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signInStyleSources } from '../../../server/sign-in-page';

const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

describe('signInStyleSources', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("hashes each prerendered page's whole stylesheet, media ranges with '<' included, once for pages that share it", () => {
    dir = mkdtempSync(join(tmpdir(), 'sign-in-page-'));
    // Minified as the build writes it: `(max-width: 599px)` becomes `(width<=599px)`.
    const shared = '.btn{color:red}@media (width<=599px){.btn-kbd{position:absolute}}.card>p{margin:0}';
    const own = 'body{margin:0}';
    const page = (...sheets: string[]) => `<!doctype html><html><head>${sheets.map((css) => `<style>${css}</style>`).join('\n')}</head><body></body></html>`;
    writeFileSync(join(dir, 'login.fr.html'), page(shared));
    writeFileSync(join(dir, 'login.en.html'), page(shared, own));
    expect(signInStyleSources(dir).sort()).toEqual([hashOf(shared), hashOf(own)].sort());
  });

  it('answers none without a prerendered page', () => {
    dir = mkdtempSync(join(tmpdir(), 'sign-in-page-'));
    expect(signInStyleSources(dir)).toEqual([]);
  });
});
