import type { Queryable } from '../db/connection';

/** One row of the audit log: who did what to how many, never the personal data itself. */
export async function audit(db: Queryable, userId: number | null, action: string, entity: string, count: number, details: object = {}) {
  await db.query('INSERT INTO audit_log (user_id, action, entity, count, details) VALUES ($1, $2, $3, $4, $5)', [
    userId,
    action,
    entity,
    count,
    JSON.stringify(details),
  ]);
}
