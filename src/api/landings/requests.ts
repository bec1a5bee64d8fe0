import { call } from '../client';
import type { LandingUpdateRequest } from './contract';
import { landingsApi } from './endpoints';

/** PATCH /api/landings/:id (admin): the thank-you URL, the max buyers of a shared lead; only the fields sent change. */
export const updateLanding = (id: number, body: LandingUpdateRequest) => call(landingsApi.update, { params: { id }, body });
