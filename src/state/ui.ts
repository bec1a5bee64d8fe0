/**
 * Interface state (valtio). Kept across visits, as docs/product.md §4 says: the sidebar preference
 * ('sidebarStatus' 1 open / 0 closed), the language, the size and the theme colour; the
 * visited views are kept too so the tags bar survives a reload.
 */
import { proxy, subscribe } from 'valtio';
import { isLanguage, pickLanguage, type Language } from '../i18n';
import { readStored, writeStored } from './storage';

export const sizes = ['medium', 'small', 'mini'] as const;
export type Size = (typeof sizes)[number];
export type Device = 'desktop' | 'mobile';
export const defaultTheme = '#1f6feb';

export interface ErrorLog {
  message: string;
  stack?: string;
  /** Where it happened: the page URL at the time. */
  url: string;
  time: string;
  source: 'error' | 'rejection' | 'render' | 'command';
}

/** A tag of the visited-views bar; its title is worked out from the path when shown, in the current language. */
export interface VisitedView {
  path: string;
}

/** Mobile when the window width minus 3 is below 1024 px (docs/product.md §2). */
export const deviceFor = (width: number): Device => (width - 3 < 1024 ? 'mobile' : 'desktop');

function storedViews(): VisitedView[] {
  try {
    const v = JSON.parse(readStored('visitedViews') ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is VisitedView => typeof x?.path === 'string').map((x) => ({ path: x.path })) : [];
  } catch {
    return [];
  }
}

const storedLanguage = readStored('language');
const storedSize = readStored('size') as Size | null;

export const ui = proxy({
  sidebar: { opened: readStored('sidebarStatus') !== '0', withoutAnimation: false },
  device: deviceFor(globalThis.innerWidth ?? 1280) as Device,
  language: (isLanguage(storedLanguage) ? storedLanguage : pickLanguage(globalThis.navigator?.languages ?? [])) as Language,
  size: (storedSize && sizes.includes(storedSize) ? storedSize : 'medium') as Size,
  theme: readStored('theme') ?? defaultTheme,
  errorLogs: [] as ErrorLog[],
  visitedViews: storedViews(),
  palette: { open: false, section: null as string | null },
  helpOpen: false,
  errorLogOpen: false,
  twoFactorOpen: false,
});

/**
 * The language is kept, and told to the server in a cookie: it sends the sign-in page prerendered
 * in it (server/sign-in-page.ts). The one picked from the browser on a first visit is kept like a
 * chosen one.
 */
function keepLanguage(language: Language) {
  writeStored('language', language);
  if (globalThis.document) document.cookie = `language=${language}; path=/; max-age=31536000; samesite=strict`;
}
keepLanguage(ui.language);

subscribe(ui, () => {
  writeStored('sidebarStatus', ui.sidebar.opened ? '1' : '0');
  keepLanguage(ui.language);
  writeStored('size', ui.size);
  writeStored('theme', ui.theme);
  writeStored('visitedViews', JSON.stringify(ui.visitedViews));
});

export function toggleSidebar() {
  ui.sidebar.opened = !ui.sidebar.opened;
  ui.sidebar.withoutAnimation = false;
}

export function closeSidebar(withoutAnimation: boolean) {
  ui.sidebar.opened = false;
  ui.sidebar.withoutAnimation = withoutAnimation;
}

export function addErrorLog(entry: Omit<ErrorLog, 'url' | 'time'>) {
  ui.errorLogs.push({ ...entry, url: globalThis.location?.href ?? '', time: new Date().toISOString() });
}

export function addVisitedView(path: string) {
  if (!ui.visitedViews.some((v) => v.path === path)) ui.visitedViews.push({ path });
}

/** Closes a tag and returns the path to show instead when it was the current one. */
export function closeVisitedView(path: string): string | undefined {
  const i = ui.visitedViews.findIndex((v) => v.path === path);
  if (i < 0) return undefined;
  ui.visitedViews.splice(i, 1);
  return (ui.visitedViews[i] ?? ui.visitedViews[i - 1])?.path;
}

export function closeOtherVisitedViews(path: string) {
  ui.visitedViews = ui.visitedViews.filter((v) => v.path === path);
}

export function closeAllVisitedViews() {
  ui.visitedViews = [];
}
