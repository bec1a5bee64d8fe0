import { useSignedInQuery } from '../signedIn';
import { deliveriesQuery, reportsQuery } from './queries';

/** How often the reports screen reads its rule's days again: today's count grows as leads are delivered. */
const REPORTS_POLL_MS = 5000;

export const useReports = (ruleId: number) => useSignedInQuery({ ...reportsQuery(ruleId), refetchInterval: REPORTS_POLL_MS });

/** A day's delivery log, read again as often: mails and webhooks are sent (and retried) after the assignment. */
export const useDeliveries = (reportId: number | undefined) =>
  useSignedInQuery({ ...deliveriesQuery(reportId ?? 0), enabled: reportId !== undefined, refetchInterval: REPORTS_POLL_MS });
