// 'Mes sessions': the account's sessions, ending one, ending every other.
import { api } from '../client';
import type { Session } from './contract';

export const fetchSessions = () => api<Session[]>('/me/sessions');
export const endSession = (id: number) => api<true>(`/me/sessions/${id}`, { method: 'DELETE' });
export const endOtherSessions = () => api<{ count: number }>('/me/sessions/end-others', { method: 'POST' });
