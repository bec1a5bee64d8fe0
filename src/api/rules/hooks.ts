import { useSignedInQuery } from '../signedIn';
import { rulesQuery, rulesTodayQuery } from './queries';

export const useRules = (customerId: number) => useSignedInQuery(rulesQuery(customerId));

/** Today's fills, polled while the screen that calls it is mounted (react-query pauses in a hidden tab). */
export const useRulesToday = (customerId: number) => useSignedInQuery(rulesTodayQuery(customerId));
