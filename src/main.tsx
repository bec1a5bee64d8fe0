import { captureWindowErrors, reactErrorCallbacks } from './app/errorCapture';
import { loadMessages, makeIntl } from './i18n';
import { ui } from './state/ui';
import './styles/base.css';

captureWindowErrors();
const messages = loadMessages(ui.language);
// The page's modules are evaluated in several tasks, each imported apart: React, zod with its
// configuration (before any contract builds a schema), react-aria's locale (its first Intl call
// loads the ICU data), then the app, which imports the routes in a task of its own. Shorter tasks
// keep the page answering input while it starts (Lighthouse's total blocking time).
const [{ createRoot }, { StrictMode, startTransition }] = await Promise.all([import('react-dom/client'), import('react')]);
await import('./api/zodConfig');
await import('react-aria/I18nProvider');
const [catalog, { App, routerReady }] = await Promise.all([messages, import('./app/App')]);
const intl = makeIntl(ui.language, catalog);
const root = document.getElementById('root')!;
// React renders once the router has loaded the first page's routes. RouterProvider reads the
// router's state as it renders and subscribes to it only at commit: rendered in a transition,
// which yields between slices, it missed the router's first state when the lazy routes came
// meanwhile, and a slow device (4× CPU) kept a blank page. The sign-in page comes prerendered
// (scripts/prerender-sign-in.mjs) and stays until React replaces it in one commit.
await routerReady;
const reactRoot = createRoot(root, reactErrorCallbacks);
// A transition: React renders the first screen in slices of a few milliseconds, not in one long
// task that keeps the page from answering input (Lighthouse's total blocking time), and commits it at once.
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <App intl={intl} />
    </StrictMode>,
  ),
);
