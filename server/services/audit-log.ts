import { PassThrough, type Readable } from 'node:stream';
import type { AuditResponse, AuditRow, auditQuery } from '../../src/api/audit/contract';
import type { z } from 'zod';
import type { Queryable } from '../db/connection';
import { Params } from '../db/params';
import { audit } from './audit';
import type { CellValue, SheetColumn } from './exports/cells';
import { sheetWriter } from './exports/writers';
import { cursorKey, decodeCursor, encodeCursor } from './leads/cursor';
import type { ResolvedColumn } from './leads/columns';

type Query = z.output<typeof auditQuery>;

const EXPORT_PAGE = 2000;

// Newest first, then by id among the rows of one transaction (they share its `at`).
const atColumn: ResolvedColumn = { key: 'at', expr: 'a.at', sortExpr: 'a.at', type: 'timestamptz' };

interface DbRow {
  id: string;
  at: Date;
  at_text: string;
  user_id: number | null;
  name: string | null;
  email: string | null;
  action: string;
  entity: string;
  count: number;
  details: Record<string, unknown>;
  ip: string | null;
}

function conditions(q: Query, params: Params): string[] {
  const where: string[] = [];
  if (q.actor !== undefined) where.push(`a.user_id = ${params.add(q.actor)}::int`);
  if (q.action) where.push(`a.action = ${params.add(q.action)}`);
  if (q.entity) where.push(`a.entity = ${params.add(q.entity)}`);
  if (q.from) where.push(`a.at >= (${params.add(q.from)}::date::timestamp AT TIME ZONE 'Europe/Paris')`);
  if (q.to) where.push(`a.at < ((${params.add(q.to)}::date + 1)::timestamp AT TIME ZONE 'Europe/Paris')`);
  return where;
}

const select = (where: string[], tail: string) =>
  `SELECT a.id::text, a.at, a.at::text AS at_text, a.user_id, u.name, u.email, a.action, a.entity, a.count, a.details, a.ip
     FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY a.at DESC, a.id DESC ${tail}`;

const toRow = (r: DbRow): AuditRow => ({
  id: Number(r.id),
  at: r.at.toISOString(),
  actor: r.user_id !== null && r.name !== null ? { id: r.user_id, name: r.name, email: r.email ?? '' } : null,
  action: r.action,
  entity: r.entity,
  count: r.count,
  details: r.details,
  address: r.ip,
});

/** Every distinct value of a column, one index probe per value (a skip scan), however long the log. */
const distinct = (db: Queryable, column: 'action' | 'entity') =>
  db
    .query<{ v: string }>(
      `WITH RECURSIVE t(v) AS (
         (SELECT ${column} FROM audit_log ORDER BY ${column} LIMIT 1)
         UNION ALL
         SELECT (SELECT ${column} FROM audit_log WHERE ${column} > t.v ORDER BY ${column} LIMIT 1) FROM t WHERE t.v IS NOT NULL)
       SELECT v FROM t WHERE v IS NOT NULL`,
    )
    .then((r) => r.rows.map((row) => row.v));

/** GET /api/audit: one page of the log, filtered, newest first. */
export async function listAudit(db: Queryable, q: Query): Promise<AuditResponse> {
  const params = new Params();
  const where = conditions(q, params);
  const key = await cursorKey(db);
  if (q._cursor) {
    const [at, id] = decodeCursor(key, q._cursor, atColumn);
    const idParam = params.add(id);
    const after = at === null ? `(SELECT at FROM audit_log WHERE id = ${idParam}::bigint)` : `${params.add(at)}::timestamptz`;
    where.push(`(a.at, a.id) < (${after}, ${idParam}::bigint)`);
  }
  const [fetched, actions, entities] = await Promise.all([
    db.query<DbRow>(select(where, `LIMIT ${params.add(q._limit + 1)}`), params.values).then((r) => r.rows),
    distinct(db, 'action'),
    distinct(db, 'entity'),
  ]);
  const page = fetched.slice(0, q._limit);
  const last = page.at(-1);
  return {
    data: page.map(toRow),
    next_cursor: fetched.length > page.length && last ? encodeCursor(key, atColumn.key, last.at_text, Number(last.id)) : null,
    actions,
    entities,
  };
}

const csvColumns: SheetColumn[] = [
  { label: 'id', kind: 'id' },
  { label: 'date', kind: 'datetime' },
  { label: 'compte_id', kind: 'id' },
  { label: 'compte', kind: 'text' },
  { label: 'email', kind: 'text' },
  { label: 'action', kind: 'text' },
  { label: 'objet', kind: 'text' },
  { label: 'nombre', kind: 'number' },
  { label: 'adresse', kind: 'text' },
  { label: 'details', kind: 'text' },
];
const csvCells = (r: DbRow): CellValue[] => [
  Number(r.id),
  r.at.toISOString(),
  r.user_id,
  r.name,
  r.email,
  r.action,
  r.entity,
  r.count,
  r.ip,
  JSON.stringify(r.details),
];

/**
 * GET /api/audit/export.csv: the whole filtered log, newest first, written page by page (keyset on
 * (at, id)) so a long log never sits in memory. The download is itself in the log.
 */
export async function exportAudit(db: Queryable, q: Query, actorId: number): Promise<Readable> {
  await audit(db, { actorId, action: 'download', entity: 'audit_log', count: 1, details: { filters: { ...q, _cursor: undefined, _limit: undefined } } });
  const out = new PassThrough();
  const writer = sheetWriter('csv', out, csvColumns, 'audit');
  const write = async () => {
    let after: DbRow | undefined;
    do {
      const params = new Params();
      const where = conditions(q, params);
      if (after) where.push(`(a.at, a.id) < (${params.add(after.at_text)}::timestamptz, ${params.add(after.id)}::bigint)`);
      const { rows } = await db.query<DbRow>(select(where, `LIMIT ${EXPORT_PAGE}`), params.values);
      await writer.rows(rows.map(csvCells));
      after = rows.length === EXPORT_PAGE ? rows.at(-1) : undefined;
    } while (after);
    await writer.end();
    out.end();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
