import { frenchOrder } from '../../db/french-order';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../errors';
import { audit } from '../audit';
import { maxSerialId } from '../../../src/api/ids';
import type { Landing, LandingColumn, LandingRef, landingUpdateRequest } from '../../../src/api/landings/contract';
import type { z } from 'zod';

type LandingUpdate = z.output<typeof landingUpdateRequest>;

export const landingNotFound = () => notFound('Impossible de récupérer les données de la LP.');

export const landingFields = 'id, key, name, kind, category, zone_climatique, columns, thank_you_url, max_buyers';
const byName = `${frenchOrder('name')}, id`;

export async function listLandings(db: Queryable, kind?: Landing['kind']): Promise<Landing[]> {
  const { rows } = kind
    ? await db.query<Landing>(`SELECT ${landingFields} FROM landings WHERE kind = $1 ORDER BY ${byName}`, [kind])
    : await db.query<Landing>(`SELECT ${landingFields} FROM landings ORDER BY ${byName}`);
  return rows;
}

export async function listLandingRefs(db: Queryable): Promise<LandingRef[]> {
  return (await db.query<LandingRef>(`SELECT id, name FROM landings ORDER BY ${byName}`)).rows;
}

export async function getLanding(db: Queryable, id: number): Promise<Landing> {
  if (id > maxSerialId) throw landingNotFound();
  const { rows } = await db.query<Landing>(`SELECT ${landingFields} FROM landings WHERE id = $1`, [id]);
  if (!rows[0]) throw landingNotFound();
  return rows[0];
}

/** Sets the fields sent: where the landing's plain HTML form goes after its post (303, or null), how many customers may share a lead. */
export async function updateLanding(db: Queryable, userId: number, id: number, input: LandingUpdate): Promise<Landing> {
  if (id > maxSerialId) throw landingNotFound();
  const { rows } = await db.query<Landing>(
    `UPDATE landings SET thank_you_url = CASE WHEN $2 THEN $3 ELSE thank_you_url END, max_buyers = COALESCE($4, max_buyers)
      WHERE id = $1 RETURNING ${landingFields}`,
    [id, input.thank_you_url !== undefined, input.thank_you_url ?? null, input.max_buyers ?? null],
  );
  if (!rows[0]) throw landingNotFound();
  intakeLandings.get(db)?.clear();
  await audit(db, { actorId: userId, action: 'update', entity: 'landing', count: 1, details: { landing_id: id, ...input } });
  return rows[0];
}

/** What an intake reads of its landing. */
type IntakeLanding = Pick<Landing, 'id' | 'columns' | 'thank_you_url'>;

/**
 * Each intake used to read its landing: a twentieth of PGlite's work at 40 intakes a second. A
 * landing's form never changes once created, and its thank-you page changes by `updateLanding`,
 * which empties this process's cache: another instance follows within INTAKE_LANDING_TTL_MS.
 * Unknown keys are not kept (a stream of made-up keys must not grow it).
 */
const INTAKE_LANDING_TTL_MS = 10_000;
const intakeLandings = new WeakMap<Queryable, Map<string, { landing: IntakeLanding; until: number }>>();

export async function getIntakeLanding(db: Queryable, key: string): Promise<IntakeLanding | undefined> {
  let cache = intakeLandings.get(db);
  if (!cache) intakeLandings.set(db, (cache = new Map()));
  const kept = cache.get(key);
  if (kept && kept.until > Date.now()) return kept.landing;
  const landing = (await db.query<IntakeLanding>('SELECT id, columns, thank_you_url FROM landings WHERE key = $1', [key])).rows[0];
  if (landing) cache.set(key, { landing, until: Date.now() + INTAKE_LANDING_TTL_MS });
  else cache.delete(key);
  return landing;
}

/** The landings of a comma-separated selection, in the given order; one unknown id → 404. */
export async function getLandings(db: Queryable, ids: number[]): Promise<Landing[]> {
  if (ids.some((id) => id > maxSerialId)) throw landingNotFound();
  const { rows } = await db.query<Landing>(`SELECT ${landingFields} FROM landings WHERE id = ANY($1::int[])`, [ids]);
  return landingsInOrder(ids, rows);
}

/** `found`, the landings read for `ids`, in the order of `ids`; one missing → 404. */
export function landingsInOrder(ids: number[], found: Landing[]): Landing[] {
  if (found.length !== ids.length) throw landingNotFound();
  return ids.map((id) => found.find((r) => r.id === id)!);
}

/** The union of the form columns of several landings, first definition of a key wins. */
export function unionColumns(landings: Landing[]): LandingColumn[] {
  const seen = new Map<string, LandingColumn>();
  for (const l of landings) for (const c of l.columns) if (!seen.has(c.key)) seen.set(c.key, c);
  return [...seen.values()];
}
