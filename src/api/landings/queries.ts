import { queryOptions } from '@tanstack/react-query';
import { api, apiEnvelope } from '../client';
import type { AllLandingsResponse, Landing, LandingRef } from './contract';

/** GET /api/landings: the sidebar's Landings group and the palette's landing entries. */
export const landingsQuery = queryOptions({ queryKey: ['landings'], queryFn: () => api<Landing[]>('/landings'), staleTime: 60_000 });

/** GET /api/landings_facebook: the sidebar's Facebook group. */
export const facebookLandingsQuery = queryOptions({ queryKey: ['landings_facebook'], queryFn: () => api<Landing[]>('/landings_facebook'), staleTime: 60_000 });

/** GET /api/all/landings: every landing, standard and facebook, for the pickers. */
export const allLandingsQuery = queryOptions({
  queryKey: ['all-landings'],
  queryFn: () => apiEnvelope<AllLandingsResponse>('/all/landings').then((r): LandingRef[] => r.data),
  staleTime: 60_000,
});
