// 'Mes sessions': the account's sessions, ending one, ending every other.
import { call } from '../client';
import { sessionsApi } from './endpoints';

export const fetchSessions = () => call(sessionsApi.list).then((r) => r.data);
export const endSession = (id: number) => call(sessionsApi.end, { params: { id } }).then((r) => r.data);
export const endOtherSessions = () => call(sessionsApi.endOthers).then((r) => r.data);
