import { useSignedInQuery } from '../signedIn';
import { usersQuery } from './queries';

export const useUsers = () => useSignedInQuery(usersQuery);
