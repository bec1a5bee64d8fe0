/**
 * Catalogs and the intl object. One JSON file per language (src/i18n/fr.json, en.json, es.json,
 * zh.json) of flat ICU messages whose ids start with their domain ("shell.logout":
 * "Déconnexion"); only the chosen language is loaded and travels to the browser.
 */
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import type { Language } from '../shared/languages';

export { isLanguage, languages, pickLanguage, type Language } from '../shared/languages';

type Catalog = Record<string, string>;
const files = import.meta.glob<Catalog>('./*.json', { import: 'default' });

export const loadMessages = (language: Language): Promise<Catalog> => files[`./${language}.json`]!();

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

export const translator =
  (intl: IntlShape): Translate =>
  (id, values) =>
    intl.formatMessage({ id }, values) as string;

/** Each language named in itself, as language switches show them. */
export const languageNames: Record<Language, string> = { fr: 'Français', en: 'English', es: 'Español', zh: '中文' };
