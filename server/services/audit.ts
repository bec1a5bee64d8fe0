import type { Queryable } from '../db/connection';
import type { Params } from '../db/params';
import { requestAddress } from '../request-address';

/**
 * What the audit log records, as the log has always named it: each action with the kind of thing
 * it counts. A new action is added here, so that a typo fails typecheck instead of writing a row
 * nobody's query finds.
 */
export type AuditEntry =
  | {
      action:
        | 'users.invite'
        | 'users.promote'
        | 'users.demote'
        | 'users.delete'
        | 'users.reset_link'
        | 'users.password_changed'
        | 'users.password_chosen'
        | 'users.password_reset';
      entity: 'user';
    }
  | { action: 'create' | 'update'; entity: 'customer' | 'rule' }
  | { action: 'update'; entity: 'landing' }
  | { action: 'delete'; entity: 'rule' | 'leads' }
  | { action: 'download'; entity: 'report' | 'export' | 'statement' }
  | { action: 'status' | 'undo' | 'convert' | 'import' | 'export' | 'export.big' | 'exports.reinject'; entity: 'leads' }
  | { action: 'sales.return'; entity: 'sale' }
  | { action: 'retention.archive' | 'retention.restore'; entity: 'leads' }
  | { action: 'production.note' | 'production.color'; entity: 'department_notes' }
  | { action: 'production.selection'; entity: 'production_selections' }
  | { action: 'taboola.targeting'; entity: 'postal_codes' }
  | { action: 'taboola.landings'; entity: 'landings' }
  | { action: 'auth.sign_in' | 'auth.sign_in_failed' | 'auth.sign_out' | 'sessions.end' | 'sessions.end_others'; entity: 'session' }
  | { action: 'download'; entity: 'audit_log' }
  | {
      action: 'users.2fa.totp_enabled' | 'users.2fa.totp_removed' | 'users.2fa.passkey_added' | 'users.2fa.passkey_removed' | 'users.2fa.reset';
      entity: 'user';
    };

export type AuditAction = AuditEntry['action'];

/**
 * One row of the audit log: who did what to how many, from which address (the request's), never
 * the personal data itself. Written with `q`, the transaction of the change it records: both are
 * kept, or neither. Nothing updates or deletes a row.
 */
export async function audit(q: Queryable, entry: AuditEntry & { actorId: number | null; count: number; details?: object }) {
  await q.query('INSERT INTO audit_log (user_id, action, entity, count, details, ip) VALUES ($1, $2, $3, $4, $5, $6)', [
    entry.actorId,
    entry.action,
    entry.entity,
    entry.count,
    JSON.stringify(entry.details ?? {}),
    requestAddress(),
  ]);
}

/**
 * The same row as SQL, to be a CTE of the statement that makes the change it records, when its
 * count or details come from that statement: one round trip to the database instead of two.
 * `count` and `details` (jsonb) are SQL expressions over the rows of `from`.
 */
export function auditSql(params: Params, entry: AuditEntry & { actorId: number | null; count: string; details: string; from: string }): string {
  return `INSERT INTO audit_log (user_id, action, entity, count, details, ip)
          SELECT ${params.add(entry.actorId)}::int, ${params.add(entry.action)}, ${params.add(entry.entity)}, ${entry.count}, ${entry.details}, ${params.add(requestAddress())}
            FROM ${entry.from}`;
}
