import './api/zodConfig';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { captureWindowErrors, reactErrorCallbacks } from './app/errorCapture';
import { loadMessages, makeIntl } from './i18n';
import { ui } from './state/ui';
import './styles/base.css';

captureWindowErrors();
// The app's modules (the router, the screens' declarations and the contracts they name) are
// evaluated in a task of their own, not in the entry's: two shorter tasks block input less.
const [messages, { App, routerReady }] = await Promise.all([loadMessages(ui.language), import('./app/App')]);
const intl = makeIntl(ui.language, messages);
const root = document.getElementById('root')!;
// The sign-in page comes prerendered (scripts/prerender-sign-in.mjs): it stays until React can
// replace it with the live screen in one commit, without an empty frame between the two.
if (root.hasChildNodes()) await routerReady;
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
