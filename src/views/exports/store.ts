// State of the exports screen shared by its components and its commands (exports.commands.ts).
import { proxy } from 'valtio';
import type { BigExportJob, ExportItem } from '../../api/exports/contract';
import type { GridHandle } from '../../grid/types';
import { last90Days } from '../../shared/dates';

type BigExportFormat = 'csv' | 'xlsx' | 'txt';

/** Statuses a custom export may take (docs/product.md §9), in the order offered. */
export const bigExportStatuses = ['new', 'extracted', 'archived', 'converted', 'trashed'] as const;

/** What the export commands see of the mounted screen (CommandContext.exports). */
export interface ExportsCommandContext {
  userId: number;
  /** The export of the grid's focused row. */
  focused: ExportItem | undefined;
  grid: () => GridHandle | null;
  refresh: () => Promise<void>;
}

export const exportsView = proxy({
  /** The filter bar (the user is the route's parameter). */
  filters: { landings: [] as number[], start: '', end: '', forCustomer: '' },
  /** What the last page said about the whole selection. */
  meta: { totalLeads: 0, landings: {} as Record<string, string>, users: {} as Record<string, string>, buyers: [] as string[] },
  /** 'Générer un export personnalisé': open or folded, and its form (the last 90 days, as the spec's date helper). */
  big: { open: false, landings: [] as number[], statuses: ['new'] as string[], start: last90Days()[0], end: last90Days()[1], format: 'csv' as BigExportFormat },
  /** The big export under way (or just ended), with its progress. */
  job: null as BigExportJob | null,
  /** Why the last request was refused (another export running, nothing matching…). */
  refusal: null as string | null,
});
