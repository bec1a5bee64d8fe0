// How the live events change a status tab of the lead view (issue 28): leads that arrive in it
// wait behind the 'nouveaux leads' bar; leads that others moved leave it, with who did it. Sales
// and returns need nothing of their own: each also writes the leads.status of the lead it moved.
import type { LiveEvent } from '../../api/events/contract';
import type { EntryStatus } from '../../api/leads/contract';

/** Where leads went: a status (converted included), or deleted. */
export type Gone = EntryStatus | 'deleted';

export interface Departure {
  ids: number[];
  to: Gone;
  /** Who moved them; null: nobody signed in (the engine's live sales, a job). */
  by: string | null;
  /** Moved by the user (maybe in another browser tab): they leave the list without a notice. */
  mine: boolean;
}

export interface TabChange {
  /** How many leads came into the tab (shown when the user asks). */
  arrived: number;
  departure: Departure | null;
}

export interface TabScope {
  landingIds: readonly number[];
  status: EntryStatus;
  /** The signed-in user: what they did themselves gets no notice, and adds nothing to the bar (their action reloaded the list). */
  me: number | undefined;
}

/** What `event` does to the tab `scope` lists; null when nothing. */
export function tabChange(event: LiveEvent, { landingIds, status, me }: TabScope): TabChange | null {
  const ours = (landing: number) => landingIds.includes(landing);
  const gone = (ids: number[], to: Gone, by: { id: number; name: string } | null): Departure => ({ ids, to, by: by?.name ?? null, mine: by?.id === me });
  const change = (arrived: number, departure: Departure | null) => (arrived > 0 || departure ? { arrived, departure } : null);
  switch (event.type) {
    case 'lead.created':
      return ours(event.data.landing_id) && event.data.entry_status === status ? change(1, null) : null;
    case 'leads.imported': {
      const d = event.data;
      return ours(d.landing_id) && d.entry_status === status && d.by?.id !== me ? change(d.count, null) : null;
    }
    // Restored from the archives screen, never from this list: the user's own restore counts too.
    case 'leads.restored': {
      const d = event.data;
      return ours(d.landing_id) && d.entry_status === status ? change(d.count, null) : null;
    }
    case 'leads.status': {
      const d = event.data;
      if (!ours(d.landing_id)) return null;
      return change(d.to === status && d.by?.id !== me ? d.ids.length : 0, d.from === status ? gone(d.ids, d.to, d.by) : null);
    }
    case 'leads.deleted': {
      const d = event.data;
      return ours(d.landing_id) && d.from === status ? change(0, gone(d.ids, 'deleted', d.by)) : null;
    }
    case 'leads.converted': {
      const d = event.data;
      return change(
        ours(d.to_landing_id) && status === 'new' && d.by?.id !== me ? d.copy_ids.length : 0,
        ours(d.landing_id) && d.from === status ? gone(d.ids, 'converted', d.by) : null,
      );
    }
    default:
      return null;
  }
}
