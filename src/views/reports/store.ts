// State of the reports screen shared by its components and its commands (reports.commands.ts).
import { proxy } from 'valtio';
import type { BookType } from '../../api/leads/contract';
import type { Report, ReportsResponse } from '../../api/reports/contract';
import type { GridHandle } from '../../grid/types';

/** What the report commands see of the mounted screen (CommandContext.reports). */
export interface ReportsCommandContext {
  ruleId: number;
  rule: ReportsResponse['rule'] | undefined;
  /** The report under the grid's focus. */
  focused: Report | undefined;
  /** A report by id, among those listed. */
  byId: (id: number) => Report | undefined;
  grid: () => GridHandle | null;
}

/** The download dialog ('Souhaitez-vous télécharger le rapport ?'): its report and chosen format, pdf first. */
export const reportDownload = proxy({
  report: null as Report | null,
  format: 'pdf' as BookType,
  busy: false,
});

/** A report's colour (docs/product.md §2): its cap reached, success; half of it, warning. */
export function reportTone(count: number, cap: number): 'success' | 'warning' | undefined {
  if (cap > 0 && count >= cap) return 'success';
  if (cap > 0 && count >= cap / 2) return 'warning';
  return undefined;
}
