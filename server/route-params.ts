import { serialIdParam } from '../src/api/ids';
import { landingIdsParam } from '../src/api/landings/contract';
import type { Queryable } from './db/connection';
import { notFound } from './errors';
import { getLandings, landingNotFound } from './services/leads/landings';

/**
 * The one way a route reads a resource id from its path: decimal digits within int4. A malformed
 * id names nothing, so it answers 404 like an unknown one, with the resource's own message.
 */
export function pathId(raw: string, message = 'Ressource introuvable'): number {
  const id = serialIdParam.safeParse(raw);
  if (!id.success) throw notFound(message);
  return id.data;
}

/** The landings named by a ':ids' path segment ("3" or "3,5"); malformed or unknown → 404. */
export async function landingsOfPath(db: Queryable, ids: string) {
  const parsed = landingIdsParam.safeParse(ids);
  if (!parsed.success) throw landingNotFound();
  return getLandings(db, parsed.data);
}
