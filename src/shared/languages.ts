/**
 * The console's languages and the choice of the first visit, shared with the server, which sends
 * the sign-in page prerendered in the language the browser will pick (server/sign-in-page.ts).
 */
export const languages = ['fr', 'en', 'es', 'zh'] as const;
export type Language = (typeof languages)[number];

export const isLanguage = (v: unknown): v is Language => languages.includes(v as Language);

/** The first of the browser's languages that we have, else English. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}
