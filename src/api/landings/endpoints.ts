import { defineEndpoint } from '../endpoint';
import { allLandingsResponse, landingResponse, landingsResponse, landingUpdateRequest } from './contract';

export const landingsApi = {
  list: defineEndpoint({ method: 'GET', path: '/api/landings', auth: 'user', response: landingsResponse, summary: 'Standard landings, by name' }),
  listFacebook: defineEndpoint({
    method: 'GET',
    path: '/api/landings_facebook',
    auth: 'user',
    response: landingsResponse,
    summary: 'Social-advertising landings',
  }),
  all: defineEndpoint({ method: 'GET', path: '/api/all/landings', auth: 'user', response: allLandingsResponse, summary: 'Every landing: id and name' }),
  get: defineEndpoint({ method: 'GET', path: '/api/landings/:id', auth: 'user', response: landingResponse, summary: 'A landing with its form columns' }),
  update: defineEndpoint({
    method: 'PATCH',
    path: '/api/landings/:id',
    auth: 'admin',
    body: landingUpdateRequest,
    response: landingResponse,
    summary: "A landing's settings: its thank-you page",
  }),
};
