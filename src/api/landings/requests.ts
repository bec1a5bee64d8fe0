import { apiEnvelope } from '../client';
import type { LandingResponse, LandingUpdateRequest } from './contract';

/** PATCH /api/landings/:id (admin): the thank-you URL, the max buyers of a shared lead; only the fields sent change. */
export const updateLanding = (id: number, body: LandingUpdateRequest) => apiEnvelope<LandingResponse>(`/landings/${id}`, { method: 'PATCH', body });
