import { defineEndpoint } from '../endpoint';
import { healthResponse, readyResponse } from './contract';

export const healthApi = {
  health: defineEndpoint({ method: 'GET', path: '/api/health', auth: 'public', response: healthResponse, summary: 'The process answers' }),
  ready: defineEndpoint({
    method: 'GET',
    path: '/api/ready',
    auth: 'public',
    response: readyResponse,
    summary: 'The database and the job queue answer (503 otherwise)',
  }),
};
