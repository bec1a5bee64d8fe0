/**
 * The sign-in screen rendered at build time (scripts/prerender-sign-in.mjs) into the page the server
 * sends for /login: drawn from the HTML itself, before any script has come. The client then renders
 * the same screen over it (src/main.tsx), in the language the visitor keeps.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { publicPageTitle } from '../../commands/screens';
import { loadMessages, makeIntl, translator, type Language } from '../../i18n';
import { IntlProvider } from '../../i18n/provider';
import { loginScreen } from './auth.screen';
import { Prerendering } from './prerendering';

export { languages } from '../../i18n';

export async function prerenderSignIn(language: Language): Promise<{ title: string; markup: string }> {
  const intl = makeIntl(language, await loadMessages(language));
  const { default: LoginScreen } = await loginScreen.load();
  const markup = renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <IntlProvider initial={intl}>
        <StaticRouter location={`/${loginScreen.path}`}>
          <Prerendering value>
            <LoginScreen />
          </Prerendering>
        </StaticRouter>
      </IntlProvider>
    </QueryClientProvider>,
  );
  return { title: publicPageTitle(translator(intl), loginScreen), markup };
}
