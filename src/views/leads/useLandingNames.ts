import { useFacebookLandings, useLandings } from '../../api/landings/hooks';

/** The names of the landings of a ':id' parameter joined by dashes (docs/product.md §2), once all are known. */
export function useLandingNames(ids: string | undefined): string | undefined {
  const landings = useLandings();
  const facebook = useFacebookLandings();
  const all = [...(landings.data ?? []), ...(facebook.data ?? [])];
  const names = (ids ?? '').split(',').map((id) => all.find((l) => String(l.id) === id)?.name);
  return names.every(Boolean) ? names.join(' - ') : undefined;
}
