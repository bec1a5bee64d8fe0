import { serialIdParam } from '../src/api/ids';
import { landingIdsParam, type Landing } from '../src/api/landings/contract';
import type { Queryable } from './db/connection';
import { notFound } from './errors';
import { getLandings, landingNotFound, landingsInOrder } from './services/leads/landings';

/**
 * The one way a route reads a resource id from its path: decimal digits within int4. A malformed
 * id names nothing, so it answers 404 like an unknown one, with the resource's own message.
 */
export function pathId(raw: string, message = 'Ressource introuvable'): number {
  const id = serialIdParam.safeParse(raw);
  if (!id.success) throw notFound(message);
  return id.data;
}

/** The landing ids of a ':ids' path segment ("3" or "3,5"), or undefined when it names none. */
export function landingIdsOfPath(ids: unknown): number[] | undefined {
  const parsed = typeof ids === 'string' ? landingIdsParam.safeParse(ids) : undefined;
  return parsed?.success ? parsed.data : undefined;
}

/**
 * The landings named by a request's ':ids' path segment, in its order; malformed or unknown → 404.
 * An authenticated request has them already, read with its session (plugins/auth.ts).
 */
export async function landingsOfPath(db: Queryable, req: { params: { ids: string }; pathLandings: Landing[] | undefined }) {
  const ids = landingIdsOfPath(req.params.ids);
  if (!ids) throw landingNotFound();
  return req.pathLandings ? landingsInOrder(ids, req.pathLandings) : getLandings(db, ids);
}
