// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { CommandButton } from '../../../../src/commands/CommandButton';
import { defineCommand, runCommand, undefineCommand, type RunOutcome } from '../../../../src/commands/registry';
import { admin, renderCommands } from '../commandsHarness';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

it('asks in a react-aria alert dialog before a danger command, and runs it only when confirmed', async () => {
  const r = await renderCommands(admin);
  cleanups.push(r.cleanup);
  const run = vi.fn();
  // The confirmation text is an i18n id; this one exists in the catalogs.
  defineCommand({ id: 'test.danger', title: 'test.danger', section: 'test', requires: 'staff', confirm: 'shell.errorLog.clear', run });
  cleanups.push(() => undefineCommand('test.danger'));
  const user = userEvent.setup();

  let outcome: Promise<RunOutcome> | undefined;
  act(() => {
    outcome = runCommand('test.danger', undefined, 'button');
  });
  const dialog = await screen.findByRole('alertdialog', { name: 'Confirmation' });
  expect(dialog.textContent).toContain('Vider le journal');
  await user.click(screen.getByRole('button', { name: 'Annuler' }));
  expect(await outcome).toBe('cancelled');
  expect(run).not.toHaveBeenCalled();

  act(() => {
    outcome = runCommand('test.danger', undefined, 'button');
  });
  await user.click(await screen.findByRole('button', { name: 'Confirmer' }));
  expect(await outcome).toBe('ran');
  expect(run).toHaveBeenCalledTimes(1);
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
});

it('CommandButton hides what the user may not run and disables what is not available here', async () => {
  let enabled = false;
  defineCommand({ id: 'test.later', title: 'shell.errorLog.clear', section: 'test', requires: 'staff', when: () => enabled, run: () => {} });
  defineCommand({ id: 'test.admin', title: 'shell.errorLog.title', section: 'test', requires: 'admin', run: () => {} });
  cleanups.push(
    () => undefineCommand('test.later'),
    () => undefineCommand('test.admin'),
  );
  const r = await renderCommands(
    admin,
    {},
    <>
      <CommandButton command="test.later" />
      <CommandButton command="test.admin" />
    </>,
  );
  cleanups.push(r.cleanup);
  expect(screen.getByRole('button', { name: 'Vider le journal' }).hasAttribute('disabled')).toBe(true);
  expect(screen.getByRole('button', { name: 'Journal des erreurs' })).toBeTruthy();
  enabled = true;
  act(() => r.context.update({ user: admin, view: 'none' }));
  expect(screen.getByRole('button', { name: 'Vider le journal' }).hasAttribute('disabled')).toBe(false);
  act(() => r.context.update({ user: { ...admin, admin: false, role: 'normal' } }));
  expect(screen.queryByRole('button', { name: 'Journal des erreurs' })).toBeNull();
});
