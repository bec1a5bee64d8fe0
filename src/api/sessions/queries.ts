import { queryOptions } from '@tanstack/react-query';
import { fetchSessions } from './requests';

/** GET /api/me/sessions: the signed-in account's sessions, newest activity first. */
export const sessionsQuery = queryOptions({ queryKey: ['me', 'sessions'], queryFn: fetchSessions, staleTime: 0 });
