// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { createRoot } from 'react-dom/client';
import { expect, it } from 'vitest';
import { captureWindowErrors, reactErrorCallbacks } from '../../../../../src/app/errorCapture';
import { ui } from '../../../../../src/state/ui';
import { ErrorBoundary } from '../../../../../src/views/shell/ErrorBoundary';

function Boom(): never {
  throw new Error('rendu cassé');
}

it('logs React render errors with the URL and keeps the shell standing with a fallback', () => {
  ui.errorLogs = [];
  const container = document.createElement('div');
  const root = createRoot(container, reactErrorCallbacks);
  act(() => {
    root.render(
      <ErrorBoundary fallback={() => <p>repli</p>}>
        <Boom />
      </ErrorBoundary>,
    );
  });
  expect(container.textContent).toBe('repli');
  expect(ui.errorLogs).toEqual([expect.objectContaining({ source: 'render', message: 'rendu cassé', url: location.href })]);
  act(() => root.unmount());
});

it('logs window errors and unhandled rejections', () => {
  ui.errorLogs = [];
  captureWindowErrors(window);
  window.dispatchEvent(new ErrorEvent('error', { message: 'fenêtre', error: new Error('fenêtre') }));
  const rejection = new Event('unhandledrejection') as Event & { reason: unknown };
  rejection.reason = new Error('promesse');
  window.dispatchEvent(rejection);
  expect(ui.errorLogs.map((e) => `${e.source}:${e.message}`)).toEqual(['error:fenêtre', 'rejection:promesse']);
});
