// State of the lead view shared by its components and its commands (leads.commands.ts).
import { proxy } from 'valtio';
import type { BookType, EntryStatus, ExportLink } from '../../api/leads/contract';
import type { GridColumnSpec, GridSelectionInfo } from '../../grid/types';
import { hrefOf } from '../../commands/screens';
import type { SavedView } from '../../api/views/contract';
import type { ListState } from '../../api/views/url';
import type { Gone } from './live';

/** The tabs of the lead view, in order (docs/product.md §2), with the status a grid tab lists. */
export const leadTabs = [
  { key: 'new', status: 'new' },
  { key: 'extracted', status: 'extracted' },
  { key: 'archived', status: 'archived' },
  { key: 'trashed', status: 'trashed' },
  { key: 'doublons', status: 'duplicate' },
  { key: 'production', stats: 'production' },
  { key: 'convertis', stats: 'convertis' },
  { key: 'production_extracted', stats: 'production_extracted' },
  { key: 'stock', stats: 'stock' },
  { key: 'landings' },
  { key: 'import' },
] as const;

export type LeadTab = (typeof leadTabs)[number]['key'];

export function statusOfTab(tab: LeadTab): EntryStatus | null {
  const def = leadTabs.find((t) => t.key === tab);
  return def && 'status' in def ? def.status : null;
}

/** The tab that lists a status (none for converted leads, which moved to another landing). */
export function tabOfStatus(status: EntryStatus): LeadTab | null {
  return leadTabs.find((t) => 'status' in t && t.status === status)?.key ?? null;
}

/** Where the lead `id` of `landing` is listed: its tab, filtered on its id. */
export function leadPath(landing: number, lead: { id: number; entry_status: EntryStatus }): string | null {
  const tab = tabOfStatus(lead.entry_status);
  return tab ? hrefOf('leads', { id: landing }, tab === 'new' ? { id: String(lead.id) } : { tab, id: String(lead.id) }) : null;
}

/** What the lead commands see of the mounted view (CommandContext.leads). */
export interface LeadsCommandContext {
  landingIds: readonly number[];
  tab: LeadTab;
  /** The status the grid lists; null on the other tabs. */
  status: EntryStatus | null;
  selection: GridSelectionInfo | null;
  columns: readonly GridColumnSpec[];
  setTab: (tab: LeadTab) => void;
  /** The list as its URL names it (tab, filters, sort): what 'Enregistrer la vue' saves. */
  list: ListState;
  /** The saved view the list is, when it is one (its URL is the view's). */
  view: SavedView | undefined;
}

export interface UndoEntry {
  actionId: number;
  /** i18n id of what was done, e.g. 'leads.toast.archived'. */
  done: string;
  count: number;
}

/** What the live events changed in the list (issue 28): leads others moved out, and those of them that were selected. */
export interface LiveNotice {
  key: number;
  to: Gone;
  by: string | null;
  count: number;
  unselected: number;
}

export const leadView = proxy({
  filename: '',
  bookType: 'xlsx' as BookType,
  buyer: '',
  /** The price of each lead sold to that buyer, in euros as typed; empty: the customer's default price. */
  price: '',
  link: null as ExportLink | null,
  copied: false,
  convertOpen: false,
  /** Status changes that can still be undone, the last on top. */
  undo: [] as UndoEntry[],
  /** The last status change, shown with its Annuler button until the next one or a while. */
  lastAction: null as UndoEntry | null,
  /** The lead whose routing the 'Pourquoi ce client ?' dialog explains. */
  routing: null as { landing: number; lead: number } | null,
  /** Leads that came into the tab since it was read: shown when the user asks ('3 nouveaux leads — Afficher'). */
  arrived: 0,
  /** The last changes others made to the list, newest last. */
  notices: [] as LiveNotice[],
});

export function dismissNotice(key: number) {
  leadView.notices = leadView.notices.filter((n) => n.key !== key);
}
