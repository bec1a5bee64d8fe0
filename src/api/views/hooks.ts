import { useSignedInQuery } from '../signedIn';
import { viewsQuery } from './queries';

export const useViews = () => useSignedInQuery(viewsQuery);
