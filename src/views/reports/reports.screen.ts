import { useSignedInQuery } from '../../api/signedIn';
import { reportsQuery } from '../../api/reports/queries';
import { defineScreen } from '../../commands/screens';
import { useT } from '../../i18n/provider';

export const screen = defineScreen({
  id: 'reports',
  path: 'customers/rules/rapports/:ruleId',
  params: { ruleId: 'id' },
  title: 'shell.screen.reports',
  parent: 'rules',
  requires: 'admin',
  // Reached from a rule (its row, the palette), never without one.
  entries: [],
  useTitle: (params) => useRuleReportsTitle(Number(params.ruleId)),
  load: () => import('.'),
});

declare module '../../commands/screens' {
  interface ScreenRegistry {
    reports: typeof screen;
  }
}

/** 'Rapports · PAC Gard matin' once the rule's name is known. */
function useRuleReportsTitle(ruleId: number): string | undefined {
  const t = useT();
  const reports = useSignedInQuery({ ...reportsQuery(ruleId), enabled: ruleId > 0 });
  const name = reports.data?.rule.name;
  return name ? t('reports.titleOf', { name }) : undefined;
}
