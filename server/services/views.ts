/**
 * Saved views of the lead view (issue 28, migration 112): a named list (landings, tab, column
 * filters, sort), its author's alone or shared with everyone. A shared view is changed only by its
 * author or an admin; another's private view does not exist for anyone else. Each view's count
 * runs the list's own count (countConditions, countLeads): one way to filter.
 */
import type { z } from 'zod';
import type { Landing } from '../../src/api/landings/contract';
import { leadFilters } from '../../src/api/leads/contract';
import { statusOfViewTab, type SavedView, type viewCreateRequest, type viewUpdateRequest } from '../../src/api/views/contract';
import type { Db, Queryable } from '../db/connection';
import { Params } from '../db/params';
import { AppError, conflict, forbidden, notFound } from '../errors';
import type { SessionUser } from './auth/sessions';
import { columnSqlType } from './leads/columns';
import { countingStats } from './leads/counting-stats';
import { getLandings, landingFields } from './leads/landings';
import { leadConditions } from './leads/filters';
import { countConditions, countLeads } from './leads/list';

type ViewCreate = z.output<typeof viewCreateRequest>;
type ViewUpdate = z.output<typeof viewUpdateRequest>;
type ViewRow = Omit<SavedView, 'editable' | 'count'> & { position: number };

const viewNotFound = () => notFound('Vue introuvable');
const nameTaken = (name: string) => conflict(`Une vue nommée « ${name} » existe déjà`);
const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

const viewSelect = `SELECT v.id, v.name, v.shared, json_build_object('id', u.id, 'name', u.name) AS owner, v.landing_ids, v.tab,
         v.filters, v.sort, v.position
    FROM views v JOIN users u ON u.id = v.owner_id`;
/** The views a user sees: its own and the shared ones. */
const visible = '(v.owner_id = $1 OR v.shared)';

const mayEdit = (user: SessionUser, view: ViewRow) => view.owner.id === user.id || (view.shared && user.admin);

/** Every view this user sees, in order, each with its count; landings are read once for all. */
export async function listViews(db: Queryable, user: SessionUser): Promise<SavedView[]> {
  const { rows } = await db.query<ViewRow>(`${viewSelect} WHERE ${visible} ORDER BY v.position`, [user.id]);
  const landings = await landingsById(
    db,
    rows.flatMap((v) => v.landing_ids),
  );
  const out: SavedView[] = [];
  for (const view of rows) out.push(await withCount(db, user, view, landings));
  return out;
}

/** The landings of some views, by id; a deleted one is simply absent. */
async function landingsById(db: Queryable, ids: number[]): Promise<Map<number, Landing>> {
  const { rows } = await db.query<Landing>(`SELECT ${landingFields} FROM landings WHERE id = ANY($1::int[])`, [[...new Set(ids)]]);
  return new Map(rows.map((l) => [l.id, l]));
}

async function withCount(db: Queryable, user: SessionUser, { position: _, ...view }: ViewRow, landings: ReadonlyMap<number, Landing>): Promise<SavedView> {
  const status = statusOfViewTab(view.tab);
  const of = view.landing_ids.map((id) => landings.get(id));
  let count: number | null = null;
  if (status && of.every((l) => l !== undefined)) {
    const params = new Params();
    // A column the landings lost since the view was saved leaves the view without a count, not the list without views.
    const where = await tryConditions(countConditions(db, of, status, view.filters, params));
    if (where) count = await countLeads(db, where, params.values, countingStats(of, view.filters, params));
  }
  return { ...view, editable: mayEdit(user, { ...view, position: 0 }), count };
}

async function tryConditions(build: Promise<string[]>): Promise<string[] | null> {
  try {
    return await build;
  } catch (err) {
    if (err instanceof AppError && err.status === 422) return null;
    throw err;
  }
}

async function getView(db: Queryable, user: SessionUser, id: number): Promise<SavedView> {
  const { rows } = await db.query<ViewRow>(`${viewSelect} WHERE v.id = $2 AND ${visible}`, [user.id, id]);
  if (!rows[0]) throw viewNotFound();
  return withCount(db, user, rows[0], await landingsById(db, rows[0].landing_ids));
}

/**
 * The state must name a list that exists: its landings (404 as the list answers), filters on
 * their columns and a sortable column (422 naming the field, as the list would).
 */
async function checkState(db: Queryable, input: ViewCreate) {
  const landings = await getLandings(db, input.landing_ids);
  leadConditions(landings, 'new', leadFilters.parse(input.filters), new Params());
  if (input.sort) columnSqlType(landings, input.sort.key, 'sort');
}

export async function createView(db: Db, user: SessionUser, input: ViewCreate): Promise<SavedView> {
  await checkState(db, input);
  try {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO views (owner_id, name, shared, landing_ids, tab, filters, sort)
       VALUES ($1, $2, $3, $4::int[], $5, $6::jsonb, $7::jsonb) RETURNING id`,
      [
        user.id,
        input.name,
        input.shared,
        input.landing_ids,
        input.tab,
        JSON.stringify(leadFilters.parse(input.filters)),
        input.sort ? JSON.stringify(input.sort) : null,
      ],
    );
    return await getView(db, user, rows[0].id);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
}

/** The view as this user may change it: 404 when not seen, 403 when another's shared view (admins excepted). */
async function editableView(q: Queryable, user: SessionUser, id: number): Promise<ViewRow> {
  const { rows } = await q.query<ViewRow>(`${viewSelect} WHERE v.id = $2 AND ${visible} FOR UPDATE OF v`, [user.id, id]);
  const view = rows[0];
  if (!view) throw viewNotFound();
  if (!mayEdit(user, view)) throw forbidden('Seul son auteur ou un administrateur peut modifier une vue partagée');
  return view;
}

export async function updateView(db: Db, user: SessionUser, id: number, input: ViewUpdate): Promise<SavedView> {
  try {
    await db.tx(async (q) => {
      const view = await editableView(q, user, id);
      if (input.name !== undefined || input.shared !== undefined) {
        await q.query('UPDATE views SET name = COALESCE($2, name), shared = COALESCE($3, shared), updated_at = now() WHERE id = $1', [
          id,
          input.name ?? null,
          input.shared ?? null,
        ]);
      }
      if (input.move) {
        // The neighbour in this user's list takes the view's place (positions are unique).
        const { rows } = await q.query<{ id: number; position: number }>(
          `SELECT v.id, v.position FROM views v WHERE ${visible} AND v.position ${input.move === 'up' ? '<' : '>'} $2
            ORDER BY v.position ${input.move === 'up' ? 'DESC' : 'ASC'} LIMIT 1 FOR UPDATE`,
          [user.id, view.position],
        );
        if (rows[0]) {
          await q.query('UPDATE views SET position = CASE id WHEN $1 THEN $2::int ELSE $3::int END WHERE id IN ($1, $4)', [
            id,
            rows[0].position,
            view.position,
            rows[0].id,
          ]);
        }
      }
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name ?? '');
    throw err;
  }
  return getView(db, user, id);
}

export async function deleteView(db: Db, user: SessionUser, id: number): Promise<{ id: number }> {
  return db.tx(async (q) => {
    await editableView(q, user, id);
    await q.query('DELETE FROM views WHERE id = $1', [id]);
    return { id };
  });
}
