import { describe, expect, it } from 'vitest';
import { LastChange } from '../../../../src/commands/lastChange';

describe('LastChange', () => {
  it('is known while the change is sent, and an undo taken meanwhile gets it once the change succeeded', async () => {
    const last = new LastChange<{ id: number }>();
    let answer!: () => void;
    const recorded = last.record({ id: 7 }, new Promise<void>((resolve) => (answer = resolve)));
    expect(last.known).toBe(true);
    const taken = last.take();
    expect(last.known).toBe(false);
    answer();
    await recorded;
    expect(await taken).toEqual({ id: 7 });
    expect(await last.take()).toBeNull();
  });

  it('gives nothing to undo for a change that failed, and rejects as the change did', async () => {
    const last = new LastChange<{ id: number }>();
    await expect(last.record({ id: 1 }, Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await last.take()).toBeNull();
  });

  it('keeps the latest of two changes', async () => {
    const last = new LastChange<string>();
    await last.record('first', Promise.resolve());
    await last.record('second', Promise.resolve());
    expect(await last.take()).toBe('second');
  });
});
