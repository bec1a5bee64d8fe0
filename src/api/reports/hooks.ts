import { useSignedInQuery } from '../signedIn';
import { deliveriesQuery, reportsQuery } from './queries';

/** A rule's days, read again on each sale, return or fill event: today's count grows as leads are delivered. */
export const useReports = (ruleId: number) => useSignedInQuery(reportsQuery(ruleId));

/** A day's delivery log, read again on the same events. */
export const useDeliveries = (reportId: number | undefined) => useSignedInQuery({ ...deliveriesQuery(reportId ?? 0), enabled: reportId !== undefined });
