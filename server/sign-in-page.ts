import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLanguage, languages, pickLanguage, type Language } from '../src/shared/languages';

/**
 * The language of the sign-in page the server sends prerendered (login.<language>.html, written by
 * scripts/prerender-sign-in.mjs): the one the visitor keeps, which the client also writes in the
 * `language` cookie (src/state/ui.ts), else the one a first visit picks from the browser's
 * languages, which Accept-Language lists in the same order as navigator.languages.
 */
export function signInLanguage(cookie: string | undefined, acceptLanguage: string | undefined): Language {
  const kept = /(?:^|;\s*)language=([^;]*)/.exec(cookie ?? '')?.[1];
  if (isLanguage(kept)) return kept;
  return pickLanguage((acceptLanguage ?? '').split(',').map((tag) => tag.split(';')[0]!.trim()));
}

export const signInPageFile = (language: Language) => `login.${language}.html`;

/** The inline stylesheets of the prerendered sign-in pages, as sources of the Content-Security-Policy's `style-src`. */
export function signInStyleSources(distDir: string): string[] {
  const sources = new Set<string>();
  for (const language of languages) {
    const file = join(distDir, signInPageFile(language));
    if (!existsSync(file)) continue;
    // Up to the closing tag: minified CSS holds '<' in its media ranges, `@media (width<=599px)`.
    for (const [, css] of readFileSync(file, 'utf8').matchAll(/<style>([\s\S]*?)<\/style>/g)) {
      sources.add(`'sha256-${createHash('sha256').update(css!).digest('base64')}'`);
    }
  }
  return [...sources];
}
