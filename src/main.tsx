import './api/zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { captureWindowErrors, reactErrorCallbacks } from './app/errorCapture';
import { loadMessages, makeIntl } from './i18n';
import { ui } from './state/ui';
import './styles/base.css';

captureWindowErrors();
const intl = makeIntl(ui.language, await loadMessages(ui.language));
createRoot(document.getElementById('root')!, reactErrorCallbacks).render(
  <StrictMode>
    <App intl={intl} />
  </StrictMode>,
);
