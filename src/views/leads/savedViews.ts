// Saved views seen from the lead view: which one the list shows now, and the dialog that names one.
import { proxy } from 'valtio';
import type { SavedView } from '../../api/views/contract';
import { viewHref } from '../../api/views/url';

/** The view the list at `path` (path and query) is, if it is one. */
export const viewAt = (views: readonly SavedView[], path: string) => views.find((v) => viewHref(v) === path);

/** The 'Enregistrer la vue' / 'Renommer la vue' dialog: a new view of the list, or a new name for `id`. */
export const viewDialog = proxy({
  open: false,
  /** The view renamed; null: the current list saved as a new view. */
  id: null as number | null,
  name: '',
  shared: false,
  busy: false,
  /** The server's message for the name (taken, too long). */
  error: '',
});
