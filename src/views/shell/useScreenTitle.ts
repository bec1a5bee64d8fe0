import type { Params } from 'react-router';
import { entryForParams, type Screen } from '../../commands/screens';
import { useT } from '../../i18n/provider';

const noTitle = () => undefined;

/**
 * The title of a screen for the breadcrumb, the tags and the window: the screen's own title hook
 * (the lead view's landing names), else its entry point's title (Production PAC), else its title.
 * The caller's component is keyed by screen, so the screen's hook keeps its place.
 */
export function useScreenTitle(screen: Screen | undefined, params: Params): string {
  const t = useT();
  const useDynamic = screen?.useTitle ?? noTitle;
  const dynamic = useDynamic(params);
  if (!screen) return '';
  return dynamic ?? t(entryForParams(screen, params)?.title ?? screen.title);
}
