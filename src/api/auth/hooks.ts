import { useMutation } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { LoginRequest } from './contract';
import { call } from '../client';
import { authApi } from './endpoints';
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
    mutationFn: (body: LoginRequest) => call(authApi.login, { body }).then((r) => r.data),
  });
}

export const logout = () => call(authApi.logout).then((r) => r.data);
