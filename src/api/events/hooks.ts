import { useEffect, useEffectEvent } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { userState } from '../../state/user';
import type { LiveEvent, LiveEventOf } from './contract';
import { liveStream } from './live';

/** Calls `listener` (its latest version) with every event while the component is mounted. */
export function useLiveEvents(listener: (event: LiveEvent) => void) {
  const onEvent = useEffectEvent(listener);
  useEffect(() => liveStream.subscribe((event) => onEvent(event)), []);
}

/** Calls `listener` when events may have been missed: what the component shows must be read again. */
export function useLiveResync(listener: () => void) {
  const onResync = useEffectEvent(listener);
  useEffect(() => liveStream.onResync(() => onResync()), []);
}

type PresentUser = LiveEventOf<'presence'>['data']['users'][number];

/** The people at each place, as the last `presence` event of that place said. */
const presence = proxy<Record<string, PresentUser[]>>({});
liveStream.subscribe((event) => {
  if (event.type === 'presence') presence[event.data.place] = event.data.users;
});

/** Says the user is at `place` while mounted, and answers who else is there. */
export function usePresence(place: string | null): readonly PresentUser[] {
  useEffect(() => {
    liveStream.setPlace(place);
    return () => {
      liveStream.setPlace(null);
      if (place) delete presence[place];
    };
  }, [place]);
  const snap = useSnapshot(presence);
  const me = useSnapshot(userState).userData?.id;
  return place ? (snap[place] ?? []).filter((u) => u.id !== me) : [];
}
