import { proxy } from 'valtio';
import type { ImportRowError } from '../../../api/leads/contract';

/** Where the import of the lead view stands; the 'leads.import' command writes its outcome here. */
export const importState = proxy({
  phase: 'idle' as 'idle' | 'parsing' | 'ready' | 'sending' | 'done',
  /** 0…1 while parsing. */
  progress: 0,
  result: null as { inserted: number; duplicates: number } | null,
  /** The server's refusal, cell by cell. */
  rowErrors: [] as ImportRowError[],
});
