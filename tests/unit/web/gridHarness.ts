/** What the jsdom suites of the generic grid share: the French catalog, a signed-in user, a laid-out page. */
import { cleanup } from '@testing-library/react';
import { createIntl } from '@formatjs/intl';
import { afterAll, afterEach, beforeAll } from 'vitest';
import fr from '../../../src/i18n/fr.json';
import { patchDom } from './domPatch';

export const intl = createIntl({ locale: 'fr', messages: fr });
export const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
export const staff = { id: 1, email: 's@x.fr', name: 'S', admin: false, role: 'normal' as const };

/**
 * Gives jsdom the sizes the virtualizer reads and unmounts after each test; returns the list where
 * a test pushes what must be undone after it (hotkeys, context slots, test commands).
 */
export function gridDom(): (() => void)[] {
  let undoLayout = () => {};
  beforeAll(() => {
    undoLayout = patchDom(HTMLElement.prototype, { clientHeight: { get: () => 600 }, clientWidth: { get: () => 1000 } });
  });
  afterAll(() => undoLayout());
  const stops: (() => void)[] = [];
  afterEach(() => {
    cleanup();
    while (stops.length) stops.pop()!();
  });
  return stops;
}
