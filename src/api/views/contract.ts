import { z } from 'zod';
import { maxSerialId } from '../ids';
import { leadFilters, type EntryStatus } from '../leads/contract';

/** The tabs of the lead view a view may open on (src/views/leads/store.ts lists them in order). */
export const viewTab = z.enum(
  ['new', 'extracted', 'archived', 'trashed', 'doublons', 'production', 'convertis', 'production_extracted', 'stock', 'landings', 'import'],
  { error: 'Onglet inconnu' },
);
export type ViewTab = z.infer<typeof viewTab>;

/** The status a list tab shows; the other tabs list no leads (their views have no count). */
const tabStatus: Partial<Record<ViewTab, EntryStatus>> = {
  new: 'new',
  extracted: 'extracted',
  archived: 'archived',
  trashed: 'trashed',
  doublons: 'duplicate',
};
export const statusOfViewTab = (tab: ViewTab): EntryStatus | null => tabStatus[tab] ?? null;

const name = z
  .string({ error: 'Nom de vue entre 1 et 80 caractères' })
  .trim()
  .min(1, 'Nom de vue entre 1 et 80 caractères')
  .max(80, 'Nom de vue entre 1 et 80 caractères');

const landingId = z.number().int().positive('Landing invalide').max(maxSerialId, 'Landing invalide');

const viewSort = z.object({ key: z.string().min(1).max(200), dir: z.enum(['asc', 'desc']) });

/** What a view opens: the lead view's whole state (its URL). Filters in the list's terms (LeadFilters). */
const viewState = {
  landing_ids: z.array(landingId, { error: 'Choisissez au moins une landing' }).min(1, 'Choisissez au moins une landing').max(100, '100 landings au plus'),
  tab: viewTab,
  filters: leadFilters,
  sort: viewSort.nullable().default(null),
};

/** POST /api/views: the current list under a name, mine alone or shared with everyone. */
export const viewCreateRequest = z.object({ name, shared: z.boolean().default(false), ...viewState }).strict();
export type ViewCreateRequest = z.input<typeof viewCreateRequest>;

/** PATCH /api/views/:id: a new name, sharing, or a move one place up or down the list. */
export const viewUpdateRequest = z
  .object({ name: name.optional(), shared: z.boolean().optional(), move: z.enum(['up', 'down']).optional() })
  .strict()
  .refine((v) => v.name !== undefined || v.shared !== undefined || v.move !== undefined, 'Rien à modifier');
export type ViewUpdateRequest = z.input<typeof viewUpdateRequest>;

const savedView = z.object({
  id: z.number(),
  name: z.string(),
  shared: z.boolean(),
  owner: z.object({ id: z.number(), name: z.string() }),
  /** Whether this user may rename, move, share or delete it: its author, or an admin for a shared view. */
  editable: z.boolean(),
  landing_ids: z.array(z.number()),
  tab: viewTab,
  filters: z.object({ contains: z.record(z.string(), z.string()), values: z.record(z.string(), z.array(z.string())), dates: z.record(z.string(), z.string()) }),
  sort: viewSort.nullable(),
  /** Leads the view lists now, counted with the list's own filters; null on a tab that lists none. */
  count: z.number().nullable(),
});
export type SavedView = z.infer<typeof savedView>;

/** GET /api/views: this user's views and the shared ones, in the sidebar's order. */
export const viewsResponse = z.object({ data: z.array(savedView) });
export const viewResponse = z.object({ data: savedView, message: z.string() });
export const viewDeleteResponse = z.object({ data: z.object({ id: z.number() }), message: z.string() });
