import { defineEndpoint } from '../endpoint';
import { eventsQuery, liveEvent } from './contract';

export const eventsApi = {
  stream: defineEndpoint({
    method: 'GET',
    path: '/api/events',
    auth: 'user',
    query: eventsQuery,
    response: { eventStream: liveEvent },
    summary: 'The live events this user may see, as server-sent events; Last-Event-ID or ?after= resumes after an id, ?place= joins a presence',
  }),
};
