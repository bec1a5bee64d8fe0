import type { Params } from 'react-router';
import { useSnapshot } from 'valtio';
import { entryForParams, mayOpen, type Screen, type ScreenTitle } from '../../commands/screens';
import { useT } from '../../i18n/provider';
import { userState } from '../../state/user';

const noTitle = () => undefined;

/** Each screen's title from data (src/views/<screen>/<screen>.title.ts), by screen. */
const titles = new Map(
  Object.values(import.meta.glob<{ title: ScreenTitle }>('../*/*.title.ts', { eager: true })).map(({ title }) => [title.screen, title.useTitle]),
);

/**
 * The title of a screen for the breadcrumb, the tags and the window: the screen's own title hook
 * (the lead view's landing names), else its entry point's title (Production PAC), else its title.
 * The screen's hook runs only where the user may open the screen (a normal user's bookmark of an
 * admin screen fetches nothing); the caller's component is keyed by useTitleKey, so the hook
 * keeps its place.
 */
export function useScreenTitle(screen: Screen | undefined, params: Params): string {
  const t = useT();
  const { userData } = useSnapshot(userState);
  const useDynamic = (screen && mayOpen(screen, userData) ? titles.get(screen.id) : undefined) ?? noTitle;
  const dynamic = useDynamic(params);
  if (!screen) return '';
  return dynamic ?? t(entryForParams(screen, params)?.title ?? screen.title);
}

/** The key of a component calling useScreenTitle: its screen, and whether the user may open it. */
export function useTitleKey(screen: Screen | undefined): string {
  const { userData } = useSnapshot(userState);
  return screen ? `${screen.id}:${mayOpen(screen, userData)}` : '';
}
