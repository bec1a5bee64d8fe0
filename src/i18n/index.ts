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

/**
 * `t`: a message compiled once per id, and a message without arguments kept as its text.
 * formatjs's formatMessage serialises its formats and formatters on every call to find the
 * compiled message in its cache, a cost that renders translating per row or per tab paid each
 * time (docs/performance.md). A missing message, or arguments it cannot format, go through
 * formatMessage: its fallback and its error report.
 */
export function translator(intl: IntlShape): Translate {
  const compiled = new Map<string, { format: (values?: Record<string, string | number>) => unknown } | string>();
  return (id, values) => {
    let message = compiled.get(id);
    if (message === undefined) {
      const source = intl.messages[id];
      if (typeof source !== 'string') return intl.formatMessage({ id }, values) as string;
      const format = intl.formatters.getMessageFormat(source, intl.locale, intl.formats, { formatters: intl.formatters });
      const ast = format.getAst();
      // Type 0: a literal, the whole message when it has no argument.
      message = ast.length === 1 && ast[0]!.type === 0 ? (ast[0] as { value: string }).value : ast.length === 0 ? '' : format;
      compiled.set(id, message);
    }
    if (typeof message === 'string') return message;
    try {
      return message.format(values) as string;
    } catch {
      return intl.formatMessage({ id }, values) as string;
    }
  };
}

/** Each language named in itself, as language switches show them. */
export const languageNames: Record<Language, string> = { fr: 'Français', en: 'English', es: 'Español', zh: '中文' };
