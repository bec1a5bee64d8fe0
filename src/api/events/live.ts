import { queryClient } from '../queryClient';
import { readToken } from '../../state/user';
import { covers, staleAfter, type Stale } from './invalidations';
import { LiveStream } from './stream';

/** The one stream of this tab, shared by every screen (hooks.ts connects it while signed in). */
export const liveStream = new LiveStream({ fetch: (url, init) => fetch(url, init), token: readToken });

/**
 * Events come in bursts (a hundred intakes a second): the queries they make stale are read again
 * at most once a second, after the first of a burst.
 */
const SETTLE_MS = 1000;
const pending = new Set<Stale>();
let timer: ReturnType<typeof setTimeout> | undefined;

function flush() {
  timer = undefined;
  const kinds = [...pending];
  pending.clear();
  void queryClient.invalidateQueries({ predicate: (query) => kinds.some((kind) => covers[kind](query)) });
}

liveStream.subscribe((event) => {
  for (const kind of staleAfter(event)) pending.add(kind);
  if (pending.size > 0 && timer === undefined) timer = setTimeout(flush, SETTLE_MS);
});

// Events were missed (a gap past the retention, a connection that could not resume): everything shown is read again.
liveStream.onResync(() => void queryClient.invalidateQueries());
