import { reportsQuery } from '../../api/reports/queries';
import { useSignedInQuery } from '../../api/signedIn';
import type { ScreenTitle } from '../../commands/screens';
import { useT } from '../../i18n/provider';

export const title: ScreenTitle = { screen: 'reports', useTitle: (params) => useRuleReportsTitle(Number(params.ruleId)) };

/** 'Rapports · PAC Gard matin' once the rule's name is known. */
function useRuleReportsTitle(ruleId: number): string | undefined {
  const t = useT();
  const reports = useSignedInQuery({ ...reportsQuery(ruleId), enabled: ruleId > 0 });
  const name = reports.data?.rule.name;
  return name ? t('reports.titleOf', { name }) : undefined;
}
