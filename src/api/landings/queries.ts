import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { landingsApi } from './endpoints';

/** GET /api/landings: the sidebar's Landings group and the palette's landing entries. */
export const landingsQuery = queryOptions({ queryKey: ['landings'], queryFn: () => call(landingsApi.list).then((r) => r.data), staleTime: 60_000 });

/** GET /api/landings_facebook: the sidebar's Facebook group. */
export const facebookLandingsQuery = queryOptions({
  queryKey: ['landings_facebook'],
  queryFn: () => call(landingsApi.listFacebook).then((r) => r.data),
  staleTime: 60_000,
});

/** GET /api/all/landings: every landing, standard and facebook, for the pickers. */
export const allLandingsQuery = queryOptions({ queryKey: ['all-landings'], queryFn: () => call(landingsApi.all).then((r) => r.data), staleTime: 60_000 });
