import { afterEach, describe, expect, it, vi } from 'vitest';
import { clipAll, measuredFit } from '../../../../src/grid/textFit';

/** A canvas whose font draws every character 7 px wide, except 0 at 8 px (the figure width). */
function stubCanvas() {
  const measured: string[] = [];
  class FakeCanvas {
    getContext() {
      return {
        font: '',
        measureText: (text: string) => {
          measured.push(text);
          return { width: [...text].reduce((w, c) => w + (c === '0' ? 8 : 7), 0) };
        },
      };
    }
  }
  vi.stubGlobal('OffscreenCanvas', FakeCanvas);
  return measured;
}

afterEach(() => vi.unstubAllGlobals());

describe('grid text fit', () => {
  it('clips every cell where nothing can be measured', () => {
    vi.stubGlobal('OffscreenCanvas', undefined);
    expect(measuredFit('13px sans-serif')).toBe(clipAll);
    expect(clipAll('a', 1000)).toBe(false);
  });

  it('clips a text only when it may not fit its room, with 2 px to spare', () => {
    stubCanvas();
    const fits = measuredFit('13px sans-serif');
    expect(fits('abcd', 30)).toBe(true); // 28 + 2
    expect(fits('abcd', 29)).toBe(false);
    // Digits are all as wide as 0 in tabular figures.
    expect(fits('19', 18)).toBe(true);
    expect(fits('19', 17)).toBe(false);
  });

  it('measures each text once', () => {
    const measured = stubCanvas();
    const fits = measuredFit('13px sans-serif');
    fits('Martin', 100);
    fits('Martin', 50);
    fits('lead12@example.fr', 100);
    expect(measured).toEqual(['Martin', 'lead00@example.fr']);
  });
});
