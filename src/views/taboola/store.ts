// State of the Taboola screen shared by its components and its commands (taboola.commands.ts).
import { proxy } from 'valtio';
import type { TaboolaAccount, TaboolaCampaign } from '../../api/taboola/contract';

/** What the Taboola commands see of the mounted screen (CommandContext.taboola). */
export interface TaboolaCommandContext {
  accountId: string | null;
  campaignId: string | null;
  accounts: readonly TaboolaAccount[];
  campaigns: readonly TaboolaCampaign[];
}

/** The next send: its type and, for INCLUDE, a file or the codes of departments. Reset when the campaign changes. */
export const taboolaView = proxy({
  type: 'ALL' as 'ALL' | 'INCLUDE',
  /** The xlsx chosen (a File, kept out of valtio's proxy with `ref`). */
  file: null as File | null,
  /** Departments typed for 'Cibler des départements' ('30, 34, 2A'). */
  departements: '',
  /** The codes those departments gave, to be sent instead of a file. */
  codes: [] as string[],
  /** Codes of the last refused send that are no French postal code (nothing was sent). */
  unknown: [] as string[],
  sending: false,
});

export function resetSend() {
  taboolaView.type = 'ALL';
  taboolaView.file = null;
  taboolaView.departements = '';
  taboolaView.codes = [];
  taboolaView.unknown = [];
}
