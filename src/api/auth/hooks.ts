import { useMutation } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { LoginRequest, User } from './contract';
import { api, apiEnvelope } from '../client';
import { useSignedInQuery } from '../signedIn';
import { userState } from '../../state/user';
import { meQuery } from './queries';

/** The current user, loaded whenever a token is present (one entry per token). */
export function useMe() {
  const { token } = useSnapshot(userState);
  return useSignedInQuery(meQuery(token));
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) =>
      apiEnvelope<{ data: { token: string; user: User; enrolment_required?: true } }>('/auth', { method: 'POST', body }).then((r) => r.data),
  });
}

export const logout = () => api<boolean>('/login/logout', { method: 'POST' });
