import { useMutation, useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { LoginRequest, User } from './contract';
import { api, apiEnvelope } from '../client';
import { userState } from '../../state/user';

export const meKey = ['me'] as const;

/** The current user, loaded whenever a token is present. */
export function useMe() {
  const { token } = useSnapshot(userState);
  return useQuery({ queryKey: [...meKey, token], queryFn: () => api<User>('/me'), enabled: Boolean(token), staleTime: 60_000 });
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) =>
      apiEnvelope<{ data: { token: string; user: User } }>('/auth', { method: 'POST', body }).then((r) => r.data),
  });
}

export const logout = () => api<boolean>('/login/logout', { method: 'POST' });
