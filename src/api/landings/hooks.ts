import { useSignedInQuery } from '../signedIn';
import { allLandingsQuery, facebookLandingsQuery, landingsQuery } from './queries';

export const useLandings = () => useSignedInQuery(landingsQuery);

export const useFacebookLandings = () => useSignedInQuery(facebookLandingsQuery);

export const useAllLandings = () => useSignedInQuery(allLandingsQuery);
