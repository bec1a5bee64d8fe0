import type { Params } from 'react-router';
import { useFacebookLandings, useLandings } from '../../api/landings/hooks';
import type { Screen } from '../../app/screens';
import { useT } from '../../i18n/provider';

/**
 * The title of a screen for the breadcrumb and the tags: the landing names joined by dashes for
 * the lead view (SPEC.md §2), the production category, else the screen's own title.
 */
export function useScreenTitle(screen: Screen | undefined, params: Params): string {
  const t = useT();
  const landings = useLandings();
  const facebook = useFacebookLandings();
  if (!screen) return '';
  if (screen.view === 'leads' && params.id) {
    const all = [...(landings.data ?? []), ...(facebook.data ?? [])];
    const names = params.id.split(',').map((id) => all.find((l) => String(l.id) === id)?.name);
    return names.every(Boolean) ? names.join(' - ') : t(screen.title);
  }
  if (screen.view === 'production' && params.category) {
    const key = { pac: 'shell.menu.pac', pv: 'shell.menu.pv', other: 'shell.menu.other' }[params.category];
    return key ? `${t(screen.title)} ${t(key)}` : t(screen.title);
  }
  return t(screen.title);
}
