import { describe, expect, it } from 'vitest';
import { ListCeiling, listKey, moveCeiling, shownCeiling } from '../../../../../src/views/leads/ceiling';

/** A page read: which ceiling it was asked under, answering the server's (the given one, else the newest id now). */
function server(newest: { id: number }) {
  const asked: Array<number | undefined> = [];
  const page = (under: number | undefined) => {
    asked.push(under);
    return Promise.resolve({ ceiling: under ?? newest.id });
  };
  return { asked, page };
}

describe('ListCeiling', () => {
  it('reads every page after the first under the ceiling the first took, even pages asked before it answered', async () => {
    const newest = { id: 10 };
    const { asked, page } = server(newest);
    const ceiling = new ListCeiling();
    await Promise.all([ceiling.read('3|new', page), ceiling.read('3|new', page)]);
    newest.id = 12;
    await ceiling.read('3|new', page);
    expect(asked).toEqual([undefined, 10, 10]);
  });

  it('takes a new one for another list, and for every list once moved', async () => {
    const newest = { id: 10 };
    const { asked, page } = server(newest);
    const ceiling = new ListCeiling();
    await ceiling.read('3|new', page);
    newest.id = 12;
    await ceiling.read('3|archived', page);
    await ceiling.read('3|archived', page);
    newest.id = 15;
    moveCeiling();
    await ceiling.read('3|archived', page);
    await ceiling.read('3|archived', page);
    expect(asked).toEqual([undefined, undefined, 12, undefined, 15]);
  });

  it('says the ceiling of the rows on screen, for "all N matching": kept once moved until the next first page came, none from a failed one', async () => {
    const newest = { id: 30 };
    const { page } = server(newest);
    const ceiling = new ListCeiling();
    const list = listKey([7, 8], 'archived');
    expect(list).toBe('7,8|archived');
    expect(shownCeiling(list)).toBeUndefined();
    await ceiling.read(list, page);
    newest.id = 33;
    moveCeiling();
    expect(shownCeiling(list)).toBe(30);
    await ceiling.read(list, () => Promise.reject(new Error('aborted'))).catch(() => undefined);
    expect(shownCeiling(list)).toBe(30);
    await ceiling.read(list, page);
    expect(shownCeiling(list)).toBe(33);
    expect(shownCeiling(listKey([7, 8], 'new'))).toBeUndefined();
  });

  it('leaves no ceiling when the first page failed: the pages waiting on it, and the next, take a new one', async () => {
    const ceiling = new ListCeiling();
    const asked: Array<number | undefined> = [];
    let fail = true;
    const page = (under: number | undefined) => {
      asked.push(under);
      if (fail) {
        fail = false;
        return Promise.reject(new Error('aborted'));
      }
      return Promise.resolve({ ceiling: under ?? 20 });
    };
    const first = ceiling.read('3|new', page);
    const waiting = ceiling.read('3|new', page);
    await expect(first).rejects.toThrow('aborted');
    expect(await waiting).toEqual({ ceiling: 20 });
    await ceiling.read('3|new', page);
    expect(asked).toEqual([undefined, undefined, 20]);
  });
});
