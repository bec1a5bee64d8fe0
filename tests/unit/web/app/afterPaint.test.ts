// @vitest-environment jsdom
// The prerendered sign-in page's loader: nothing is asked for before the first frame, then the
// entry, then the preloads a few per task; a hidden tab, which paints no frame, gets them at once.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { loadAfterPaint } from '../../../../src/app/afterPaint';

const preloads = Array.from({ length: 7 }, (_, i) => `/assets/chunk-${i}.js`);
const tag = () => {
  const script = document.createElement('script');
  script.dataset.entry = '/assets/index-AbCd1234.js';
  script.dataset.preload = preloads.join(' ');
  return script;
};
const asked = () =>
  [...document.head.querySelectorAll('script[type="module"], link[rel="modulepreload"]')].map((e) => e.getAttribute('src') ?? e.getAttribute('href'));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.head.replaceChildren();
});

it('asks for the entry once the first frame is painted, then the preloads three per task', () => {
  loadAfterPaint(tag());
  expect(asked()).toEqual([]);
  vi.advanceTimersToNextFrame();
  expect(asked()).toEqual([]);
  vi.advanceTimersToNextTimer();
  expect(asked()).toEqual(['/assets/index-AbCd1234.js']);
  vi.advanceTimersToNextTimer();
  expect(asked()).toEqual(['/assets/index-AbCd1234.js', ...preloads.slice(0, 3)]);
  vi.advanceTimersToNextTimer();
  expect(asked()).toEqual(['/assets/index-AbCd1234.js', ...preloads.slice(0, 6)]);
  vi.advanceTimersToNextTimer();
  expect(asked()).toEqual(['/assets/index-AbCd1234.js', ...preloads]);
  const entry = document.head.querySelector('script[type="module"]') as HTMLScriptElement;
  expect(entry.crossOrigin).toBe('');
});

it('asks at once in a hidden tab', () => {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
  loadAfterPaint(tag());
  expect(asked()).toEqual(['/assets/index-AbCd1234.js']);
});
