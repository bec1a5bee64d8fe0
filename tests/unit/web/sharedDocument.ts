/**
 * The jsdom files' setup (vitest.config.ts, `unit-dom`). They share one document and their modules,
 * so what a file leaves behind is put back before the next: the page, the interface's and the
 * user's stores as they were first loaded, the storage and the cookies (visited views or an open
 * palette left by one file changed what the next one's palette listed and its keys did).
 */
import { cleanup } from '@testing-library/react';
import { afterAll } from 'vitest';
import { ui } from '../../../src/state/ui';
import { userState } from '../../../src/state/user';
import { firstStores } from './firstStores';

// What jsdom lacks and the interface calls: CSS.escape (react-aria's popovers), scrollIntoView.
globalThis.CSS ??= { escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) } as typeof CSS;
Element.prototype.scrollIntoView ??= () => {};

const first = (firstStores.saved ??= { ui: JSON.stringify(ui), user: JSON.stringify(userState) });

afterAll(async () => {
  cleanup();
  document.body.replaceChildren();
  Object.assign(ui, JSON.parse(first.ui));
  Object.assign(userState, JSON.parse(first.user));
  // The stores write themselves to the storage after a change, a microtask later.
  await Promise.resolve();
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split('; ').filter(Boolean)) document.cookie = `${cookie.split('=')[0]}=; max-age=0; path=/`;
});
