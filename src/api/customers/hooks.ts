import { useSignedInQuery } from '../signedIn';
import { customersQuery } from './queries';

export const useCustomers = () => useSignedInQuery(customersQuery);
