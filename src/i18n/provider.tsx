import { createContext, use, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { IntlShape } from '@formatjs/intl';
import { I18nProvider } from 'react-aria-components';
import { useSnapshot } from 'valtio';
import { ui } from '../state/ui';
import { loadMessages, makeIntl, translator, type Language, type Translate } from '.';

const IntlContext = createContext<IntlShape | null>(null);

/**
 * Loads the catalogs of the chosen language and keeps the previous ones on screen meanwhile.
 * react-aria gets the same language: without it, its own texts and list formats (a multiple
 * Select's "A, B et C") followed the browser's language, not the console's.
 */
export function IntlProvider({ children, initial }: { children: ReactNode; initial: IntlShape }) {
  const { language } = useSnapshot(ui);
  const [intl, setIntl] = useState(initial);
  useEffect(() => {
    if (intl.locale === language) return;
    let live = true;
    void loadMessages(language as Language).then((messages) => {
      if (live) setIntl(makeIntl(language as Language, messages));
    });
    return () => {
      live = false;
    };
  }, [language, intl.locale]);
  useEffect(() => {
    document.documentElement.lang = intl.locale;
  }, [intl.locale]);
  return (
    <IntlContext value={intl}>
      <I18nProvider locale={intl.locale}>{children}</I18nProvider>
    </IntlContext>
  );
}

export function useIntl(): IntlShape {
  const intl = use(IntlContext);
  if (!intl) throw new Error('useIntl outside IntlProvider');
  return intl;
}

export function useT(): Translate {
  const intl = useIntl();
  return useMemo(() => translator(intl), [intl]);
}
