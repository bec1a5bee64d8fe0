// `t` (translator) keeps each message compiled instead of asking formatjs's cache on every call:
// it must say exactly what formatMessage says, for every message of every catalog, with the
// arguments each one takes, and fall back as formatMessage does when a message cannot be formatted.
import { describe, expect, it, vi } from 'vitest';
import { languages, loadMessages, makeIntl, translator } from '../../../../src/i18n';

/** Arguments for a message: a number for the ones a plural, select ordinal or number format reads, a word otherwise. */
function argumentsOf(message: string): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [, name, kind] of message.matchAll(/\{\s*(\w+)\s*(?:,\s*(\w+))?/g)) {
    values[name!] = kind === 'plural' || kind === 'selectordinal' || kind === 'number' ? 2 : kind === 'select' ? 'other' : `«${name}»`;
  }
  return values;
}

describe('translator', () => {
  it.each(languages)('says what formatMessage says for every message in %s, twice', async (language) => {
    const messages = await loadMessages(language);
    const intl = makeIntl(language, messages);
    const t = translator(intl);
    for (const [id, message] of Object.entries(messages)) {
      const values = argumentsOf(message);
      const expected = intl.formatMessage({ id }, values);
      expect(t(id, values), id).toBe(expected);
      expect(t(id, values), id).toBe(expected);
    }
  });

  it('counts in the plural the language has', async () => {
    const t = translator(makeIntl('fr', { n: '{count, plural, one {# prospect} other {# prospects}}' }));
    expect([t('n', { count: 1 }), t('n', { count: 3 })]).toEqual(['1 prospect', '3 prospects']);
  });

  it('answers a missing id with the id, and a message missing its argument as formatMessage does, reporting both', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const intl = makeIntl('fr', { hello: 'Bonjour {name}', plain: "L'œil d''or" });
    const t = translator(intl);
    expect(t('nowhere')).toBe('nowhere');
    expect(t('hello')).toBe('Bonjour {name}');
    expect(t('plain')).toBe("L'œil d'or");
    expect(warn.mock.calls.map(([message]) => String(message).split(']')[0])).toEqual([
      '[@formatjs/intl Error MISSING_TRANSLATION',
      '[@formatjs/intl Error FORMAT_ERROR',
    ]);
    warn.mockRestore();
  });
});
