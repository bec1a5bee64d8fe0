import { meQuery } from '../api/auth/queries';
import { facebookLandingsQuery, landingsQuery } from '../api/landings/queries';
import { queryClient } from '../api/queryClient';
import { viewsQuery } from '../api/views/queries';
import { readToken } from '../state/user';

/**
 * Asks what the shell reads on every screen (the user, the sidebar's landings and saved views)
 * while its code is still coming: once it had rendered, a phone waited a round trip more and
 * the whole first render (Lighthouse, lead view).
 */
export function prefetchShellQueries() {
  const token = readToken();
  if (!token) return;
  void queryClient.prefetchQuery(meQuery(token));
  void queryClient.prefetchQuery(landingsQuery);
  void queryClient.prefetchQuery(facebookLandingsQuery);
  void queryClient.prefetchQuery(viewsQuery);
}
