/**
 * Catalogs and the intl object. Every domain has a folder src/i18n/<domain>/ with fr, en, es
 * and zh JSON files of flat ICU messages ("shell.logout": "Déconnexion"); they are merged per
 * language and loaded lazily, so only the chosen language travels to the browser.
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';

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

type Catalog = Record<string, string>;
const files = import.meta.glob<Catalog>('./*/*.json', { import: 'default' });

export async function loadMessages(language: Language): Promise<Catalog> {
  const parts = await Promise.all(
    Object.entries(files)
      .filter(([path]) => path.endsWith(`/${language}.json`))
      .map(([, load]) => load()),
  );
  return Object.assign({}, ...parts);
}

const cache = createIntlCache();

export function makeIntl(language: Language, messages: Catalog): IntlShape {
  return createIntl(
    {
      locale: language,
      messages,
      onError: (error) => {
        if (import.meta.env.DEV) console.warn(error.message);
      },
    },
    cache,
  );
}

export type Translate = (id: string, values?: Record<string, string | number>) => string;

export const translator = (intl: IntlShape): Translate => (id, values) => intl.formatMessage({ id }, values) as string;

/** Each language named in itself, as language switches show them. */
export const languageNames: Record<Language, string> = { fr: 'Français', en: 'English', es: 'Español', zh: '中文' };
