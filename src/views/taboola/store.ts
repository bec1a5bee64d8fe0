// State of the Taboola screen shared by its components and its commands (taboola.commands.ts).
import { proxy } from 'valtio';
import type { TaboolaAccount, TaboolaCampaign, Targeting } from '../../api/taboola/contract';

/** What the Taboola commands see of the mounted screen (CommandContext.taboola). */
export interface TaboolaCommandContext {
  accountId: string | null;
  campaignId: string | null;
  accounts: readonly TaboolaAccount[];
  campaigns: readonly TaboolaCampaign[];
  /** The campaign's targeting as last read (null until read): the form starts from it. */
  targeting: Targeting | null;
  /** The landings the campaign feeds ('Cibler les zones couvertes' targets where they sell). */
  landings: readonly number[];
}

/**
 * The next send: its type and, for INCLUDE, a file or the codes of departments. It starts from the
 * campaign's current targeting (a list stays that list, never ALL), again after a send or a re-read.
 */
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

/** The form as the campaign targets today (an EXCLUDE starts as an empty INCLUDE: the form sends no EXCLUDE). */
export function resetSend(from: Targeting | null) {
  taboolaView.type = from && from.type !== 'ALL' ? 'INCLUDE' : 'ALL';
  taboolaView.file = null;
  taboolaView.departements = '';
  taboolaView.codes = from?.type === 'INCLUDE' ? [...from.codes] : [];
  taboolaView.unknown = [];
}
