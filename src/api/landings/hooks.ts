import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { Landing } from './contract';
import { api } from '../client';
import { userState } from '../../state/user';

export const landingsKey = ['landings'] as const;
export const facebookLandingsKey = ['landings_facebook'] as const;

/** GET /api/landings: the sidebar's Landings group and the palette's landing entries. */
export function useLandings() {
  const { token } = useSnapshot(userState);
  return useQuery({ queryKey: landingsKey, queryFn: () => api<Landing[]>('/landings'), enabled: Boolean(token), staleTime: 60_000 });
}

/** GET /api/landings_facebook: the sidebar's Facebook group. */
export function useFacebookLandings() {
  const { token } = useSnapshot(userState);
  return useQuery({
    queryKey: facebookLandingsKey,
    queryFn: () => api<Landing[]>('/landings_facebook'),
    enabled: Boolean(token),
    staleTime: 60_000,
  });
}
