// @vitest-environment jsdom
// The toast host: one toast per message, announced as a status or an alert (never an unnamed
// dialog), gone after its delay, and cleared by a successful sign-in.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { loadMessages, makeIntl } from '../../../../src/i18n';
import { IntlProvider } from '../../../../src/i18n/provider';
import { signIn, signOutLocally } from '../../../../src/state/user';
import { clearToasts, TOAST_MS, toaster, Toasts } from '../../../../src/ui/toasts';

beforeEach(async () => {
  vi.useFakeTimers();
  signOutLocally();
  render(
    <IntlProvider initial={makeIntl('fr', await loadMessages('fr'))}>
      <Toasts />
    </IntlProvider>,
  );
});
afterEach(() => {
  act(() => clearToasts());
  cleanup();
  vi.useRealTimers();
});

it('shows a message repeated four times once, as an alert, and no dialog', () => {
  act(() => {
    for (let i = 0; i < 4; i++) toaster.warning('Aucun lead');
    toaster.success('Leads archivés');
  });
  expect(screen.getAllByText('Aucun lead')).toHaveLength(1);
  expect(screen.getByRole('alert').textContent).toContain('Aucun lead');
  expect(screen.getByRole('status').textContent).toContain('Leads archivés');
  expect(screen.queryAllByRole('alertdialog')).toHaveLength(0);
  expect(screen.queryAllByRole('dialog')).toHaveLength(0);
  expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
});

it('keeps a repeated message for a full delay from its last showing, then removes it', () => {
  act(() => toaster.info('Copié'));
  act(() => vi.advanceTimersByTime(TOAST_MS - 1000));
  act(() => toaster.info('Copié'));
  act(() => vi.advanceTimersByTime(TOAST_MS - 1000));
  expect(screen.getAllByText('Copié')).toHaveLength(1);
  act(() => vi.advanceTimersByTime(1001));
  expect(screen.queryByText('Copié')).toBeNull();
});

it('clears the sign-in failure once the user is signed in', async () => {
  act(() => toaster.error('Identification impossible'));
  expect(screen.getByText('Identification impossible')).toBeTruthy();
  await act(async () => signIn('a-token'));
  expect(screen.queryByText('Identification impossible')).toBeNull();
  await act(async () => signOutLocally());
});
