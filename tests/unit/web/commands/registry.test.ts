import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../src/api/auth/contract';
import { getCommandContext, provideCommandContext } from '../../../../src/commands/context';
import {
  allCommands,
  defineCommand,
  isAvailable,
  onCommandRun,
  runCommand,
  setConfirmer,
  undefineCommand,
  type RunRecord,
} from '../../../../src/commands/registry';

const staff: User = { id: 2, email: 'staff@x.fr', name: 'Staff', admin: false, role: 'normal' };
const admin: User = { id: 1, email: 'admin@x.fr', name: 'Admin', admin: true, role: 'admin' };

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function define(id: string, extra: Partial<Parameters<typeof defineCommand>[0]> = {}) {
  const run = vi.fn();
  defineCommand({ id, title: id, section: 'test', requires: 'staff', run, ...extra });
  cleanups.push(() => undefineCommand(id));
  return run;
}

function as(user: User | null, values: Parameters<typeof provideCommandContext>[0] = {}) {
  const handle = provideCommandContext({ user, ...values });
  cleanups.push(handle.remove);
  return handle;
}

describe('command registry', () => {
  it('rejects a duplicate id', () => {
    define('test.once');
    expect(() => define('test.once')).toThrow(/already defined/);
    expect(allCommands().filter((c) => c.id === 'test.once')).toHaveLength(1);
  });

  it('throws on an unknown id', async () => {
    await expect(runCommand('test.missing')).rejects.toThrow(/Unknown command/);
  });

  it('honours requires: admin commands do not run for staff, nor anything without a user', async () => {
    const run = define('test.admin', { requires: 'admin' });
    as(null);
    expect(await runCommand('test.admin')).toBe('forbidden');
    const h = as(staff);
    expect(await runCommand('test.admin')).toBe('forbidden');
    h.update({ user: admin });
    expect(await runCommand('test.admin')).toBe('ran');
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs the shell’s own commands (requires: session) before the user’s record, and staff ones only with it', async () => {
    const own = define('test.session', { requires: 'session' });
    const staffOnly = define('test.staff');
    const h = as(null);
    expect(await runCommand('test.session')).toBe('ran');
    expect(await runCommand('test.staff')).toBe('forbidden');
    h.update({ user: staff });
    expect(await runCommand('test.session')).toBe('ran');
    expect(await runCommand('test.staff')).toBe('ran');
    expect(own).toHaveBeenCalledTimes(2);
    expect(staffOnly).toHaveBeenCalledTimes(1);
  });

  it('honours when against the current context, screens extending it', async () => {
    const run = define('test.when', { when: (ctx) => ctx.view === 'leads' && ctx.selection.size > 0 });
    as(staff, { view: 'home' });
    expect(await runCommand('test.when')).toBe('disabled');
    const screen = as(staff, { view: 'leads', selection: new Set<number>() });
    expect(
      isAvailable(
        allCommands().find((c) => c.id === 'test.when')!,
        getCommandContext(),
      ),
    ).toBe(false);
    screen.update({ view: 'leads', selection: new Set([4, 5]) });
    expect(await runCommand('test.when', { n: 1 })).toBe('ran');
    expect(run).toHaveBeenCalledWith(expect.objectContaining({ view: 'leads', user: staff }), { n: 1 });
    screen.remove();
    expect(getCommandContext().view).toBe('home');
  });

  it('asks for confirmation and stops when refused', async () => {
    const run = define('test.danger', { confirm: 'test.sure' });
    as(staff);
    const answers = [false, true];
    const asked: string[] = [];
    setConfirmer(async ({ message }) => {
      asked.push(message);
      return answers.shift()!;
    });
    expect(await runCommand('test.danger')).toBe('cancelled');
    expect(run).not.toHaveBeenCalled();
    expect(await runCommand('test.danger')).toBe('ran');
    expect(asked).toEqual(['test.sure', 'test.sure']);
  });

  it('reports every run, from every surface, through one path', async () => {
    define('test.path');
    as(staff);
    const seen: RunRecord[] = [];
    cleanups.push(onCommandRun((r) => seen.push(r)));
    for (const source of ['palette', 'hotkey', 'button', 'menu', 'sidebar', 'navbar', 'tags'] as const) {
      await runCommand('test.path', undefined, source);
    }
    expect(seen.map((r) => `${r.source}:${r.outcome}`)).toEqual([
      'palette:ran',
      'hotkey:ran',
      'button:ran',
      'menu:ran',
      'sidebar:ran',
      'navbar:ran',
      'tags:ran',
    ]);
  });

  it('catches a failing run and reports it as failed', async () => {
    define('test.fails', {
      run: () => {
        throw new Error('boom');
      },
    });
    as(staff);
    expect(await runCommand('test.fails')).toBe('failed');
  });
});
