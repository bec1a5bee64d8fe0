// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineCommand, undefineCommand } from '../../../../src/commands/registry';
import { ui } from '../../../../src/state/ui';
import { admin, renderCommands } from '../commandsHarness';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  vi.useRealTimers();
});

function letterCommand(keys: string[], when?: () => boolean) {
  const run = vi.fn();
  defineCommand({ id: 'test.letter', title: 'test.letter', section: 'test', keys, requires: 'staff', when, run });
  cleanups.push(() => undefineCommand('test.letter'));
  return run;
}

async function setup() {
  const r = await renderCommands(admin);
  cleanups.push(r.cleanup);
  return r;
}

const keydown = (init: KeyboardEventInit, target: EventTarget = window) => {
  const event = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
  act(() => {
    target.dispatchEvent(event);
  });
  return event;
};

describe('hotkeys', () => {
  it('match the typed character: AZERTY A (code KeyQ) fires "a", AZERTY Q (code KeyA) does not', async () => {
    await setup();
    const run = letterCommand(['a']);
    keydown({ key: 'q', code: 'KeyA' });
    expect(run).not.toHaveBeenCalled();
    const event = keydown({ key: 'a', code: 'KeyQ' });
    expect(run).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
  });

  it('need Shift for letters only: "shift+j" wants J; "!" is Shift+1 on QWERTY and unshifted on AZERTY', async () => {
    await setup();
    const run = letterCommand(['shift+j', '!']);
    keydown({ key: 'j' });
    expect(run).not.toHaveBeenCalled();
    keydown({ key: 'J', shiftKey: true });
    keydown({ key: '!', shiftKey: true, code: 'Digit1' });
    keydown({ key: '!', code: 'Slash' });
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('never fire a letter while typing in a field, but Ctrl shortcuts do', async () => {
    await setup();
    const run = letterCommand(['a']);
    const user = userEvent.setup();
    const input = screen.getByRole('textbox', { name: 'Note' });
    await user.click(input);
    await user.keyboard('a');
    expect(run).not.toHaveBeenCalled();
    expect((input as HTMLInputElement).value).toBe('a');
    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox');
  });

  it('are swallowed while a dialog is open, and come back when it closes; a toast does not count', async () => {
    await setup();
    const run = letterCommand(['a']);
    act(() => {
      ui.helpOpen = true;
    });
    await screen.findByRole('dialog');
    keydown({ key: 'a' });
    expect(run).not.toHaveBeenCalled();
    act(() => {
      ui.helpOpen = false;
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const toast = document.createElement('div');
    toast.setAttribute('role', 'alertdialog');
    toast.setAttribute('aria-modal', 'false');
    document.body.append(toast);
    cleanups.push(() => toast.remove());
    keydown({ key: 'a' });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('are swallowed from the moment mod+k opens the palette, before React has drawn it', async () => {
    await setup();
    const run = letterCommand(['a']);
    keydown({ key: 'k', ctrlKey: true });
    expect(ui.palette.open).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    keydown({ key: 'a' });
    expect(run).not.toHaveBeenCalled();
    act(() => {
      ui.palette = { open: false, section: null };
    });
  });

  it('run sequences within 1.5 s, and let a later key start afresh', async () => {
    const r = await setup();
    vi.useFakeTimers();
    keydown({ key: 'g' });
    keydown({ key: 'c' });
    expect(r.navigations).toEqual(['/customers']);
    keydown({ key: 'g' });
    vi.advanceTimersByTime(1600);
    keydown({ key: 'u' });
    expect(r.navigations).toEqual(['/customers']);
    keydown({ key: 'g' });
    keydown({ key: 'x' });
    keydown({ key: 'g' });
    keydown({ key: 'u' });
    expect(r.navigations).toEqual(['/customers', '/users']);
  });

  it('show where each next key of a sequence leads while it is under way', async () => {
    await setup();
    keydown({ key: 'g' });
    const hint = screen.getByRole('status');
    for (const text of ['CClients', 'RRègles', 'UGestion des comptes', 'LAller à une landing…']) expect(hint.textContent).toContain(text);
    // Two keys to one screen are alternatives, not a sequence: 'A / H', said 'A', 'ou H'.
    const home = within(hint).getByText('Accueil').closest('li')!;
    expect(home.textContent).toBe('A/HAccueil');
    expect(
      within(home)
        .getAllByRole('img')
        .map((k) => k.getAttribute('aria-label')),
    ).toEqual(['A', 'ou H']);
    keydown({ key: 'c' });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('leave the key alone when the command is not available here', async () => {
    await setup();
    let enabled = false;
    const run = letterCommand(['a'], () => enabled);
    const event = keydown({ key: 'a' });
    expect(run).not.toHaveBeenCalled();
    expect(event.defaultPrevented).toBe(false);
    enabled = true;
    keydown({ key: 'a' });
    expect(run).toHaveBeenCalledTimes(1);
  });
});
