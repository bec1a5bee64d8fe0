import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { userState } from '../../state/user';

/**
 * Keeps the tab's stream open while signed in, closed once signed out (App mounts it once). The
 * stream and what its events make stale (every screen's queries and contracts) load once signed
 * in: the sign-in page does without them.
 */
export function useLiveConnection() {
  const { token } = useSnapshot(userState);
  useEffect(() => {
    if (!token) return;
    let stop: (() => void) | undefined;
    let signedOut = false;
    void import('./live').then(({ liveStream }) => {
      if (signedOut) return;
      liveStream.start();
      stop = () => liveStream.stop();
    });
    return () => {
      signedOut = true;
      stop?.();
    };
  }, [token]);
}
