import { frenchOrder } from '../../db/french-order';
import type { z } from 'zod';
import { weekdays, type Rule, type ruleCreateRequest, type ruleUpdateRequest, type RulesTodayResponse } from '../../../src/api/rules/contract';
import type { Db, Queryable } from '../../db/connection';
import { notFound, validationFailed } from '../../errors';
import { audit } from '../audit';
import { parisClock } from '../delivery/paris-time';

export const ruleNotFound = 'Règle introuvable';

const ruleSql = `
  SELECT r.id, r.name, r.customer_id, c.name AS customer_name, c.active AS customer_active,
         COALESCE((SELECT json_agg(json_build_object('id', l.id, 'name', l.name) ORDER BY ${frenchOrder('l.name')}, l.id)
                     FROM landings l WHERE l.id = ANY(r.landing_ids)), '[]') AS landings,
         r.zip, json_build_object('start', r.hour_start, 'end', r.hour_end) AS hours, r.leads_number,
         r.monday, r.tuesday, r.wednesday, r.thursday, r.friday, r.saturday, r.sunday, r.active,
         json_build_object('count', COALESCE(rep.count, 0), 'leads_number', r.leads_number) AS today,
         to_json(r.created_at) #>> '{}' AS created_at
    FROM rules r
    JOIN customers c ON c.id = r.customer_id
    LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = $1::date`;

const today = () => parisClock(new Date()).day;

/** Rules not deleted, of one customer or of all (customerId 0), by customer then name. */
export async function listRules(db: Queryable, customerId: number): Promise<Rule[]> {
  const { rows } = await db.query<Rule>(
    `${ruleSql} WHERE r.deleted_at IS NULL AND ($2::int = 0 OR r.customer_id = $2) ORDER BY ${frenchOrder('c.name')}, ${frenchOrder('r.name')}, r.id`,
    [today(), customerId],
  );
  return rows;
}

export async function getRule(db: Queryable, id: number): Promise<Rule> {
  const rule = (await db.query<Rule>(`${ruleSql} WHERE r.id = $2 AND r.deleted_at IS NULL`, [today(), id])).rows[0];
  if (!rule) throw notFound(ruleNotFound);
  return rule;
}

/** Unknown customer or landings are the form's fault: 422 naming the field. */
async function checkReferences(q: Queryable, customerId: number | undefined, landings: number[] | undefined) {
  const errors: Record<string, string> = {};
  if (customerId !== undefined && !(await q.query('SELECT 1 FROM customers WHERE id = $1', [customerId])).rows[0]) errors.customer_id = 'Client inconnu';
  if (landings) {
    const { rows } = await q.query<{ id: number }>('SELECT id FROM landings WHERE id = ANY($1::int[])', [landings]);
    const known = new Set(rows.map((r) => r.id));
    const unknown = landings.filter((id) => !known.has(id));
    if (unknown.length) errors.landings = `Landing inconnue : ${unknown.join(', ')}`;
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

type RuleInput = z.output<typeof ruleCreateRequest>;

export async function createRule(db: Db, userId: number, input: RuleInput): Promise<Rule> {
  return db.tx(async (q) => {
    await checkReferences(q, input.customer_id, input.landings);
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO rules (name, customer_id, landing_ids, zip, hour_start, hour_end, leads_number, active,
                          monday, tuesday, wednesday, thursday, friday, saturday, sunday)
       VALUES ($1, $2, $3::int[], $4::text[], $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [
        input.name,
        input.customer_id,
        input.landings,
        input.zip,
        input.hours.start,
        input.hours.end,
        input.leads_number,
        input.active,
        ...weekdays.map((d) => input[d]),
      ],
    );
    await audit(q, { actorId: userId, action: 'create', entity: 'rule', count: 1, details: { rule_id: rows[0].id } });
    return getRule(q, rows[0].id);
  });
}

/** Edits, pauses or resumes: only the fields sent change. */
export async function updateRule(db: Db, userId: number, id: number, input: z.output<typeof ruleUpdateRequest>): Promise<Rule> {
  return db.tx(async (q) => {
    const locked = await q.query('SELECT 1 FROM rules WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [id]);
    if (!locked.rows[0]) throw notFound(ruleNotFound);
    await checkReferences(q, input.customer_id, input.landings);
    const sets: string[] = [];
    const values: unknown[] = [id];
    const set = (column: string, value: unknown, cast = '') => {
      values.push(value);
      sets.push(`${column} = $${values.length}${cast}`);
    };
    if (input.name !== undefined) set('name', input.name);
    if (input.customer_id !== undefined) set('customer_id', input.customer_id);
    if (input.landings !== undefined) set('landing_ids', input.landings, '::int[]');
    if (input.zip !== undefined) set('zip', input.zip, '::text[]');
    if (input.hours !== undefined) {
      set('hour_start', input.hours.start);
      set('hour_end', input.hours.end);
    }
    if (input.leads_number !== undefined) set('leads_number', input.leads_number);
    if (input.active !== undefined) set('active', input.active);
    for (const d of weekdays) if (input[d] !== undefined) set(d, input[d]);
    if (sets.length) await q.query(`UPDATE rules SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, values);
    // Today's report shows the rule's cap at once, not the one of its first lead until the next
    // one; earlier days keep the cap they were filled under.
    if (input.leads_number !== undefined)
      await q.query('UPDATE reports SET leads_number = $2 WHERE rule_id = $1 AND date = $3::date', [id, input.leads_number, today()]);
    await audit(q, { actorId: userId, action: 'update', entity: 'rule', count: 1, details: { rule_id: id, fields: Object.keys(input) } });
    return getRule(q, id);
  });
}

/** Deletes a rule for the engine and the lists; its reports and the routing explanations keep it. */
export async function deleteRule(db: Db, userId: number, id: number): Promise<void> {
  await db.tx(async (q) => {
    const { rows } = await q.query('UPDATE rules SET deleted_at = now(), active = false WHERE id = $1 AND deleted_at IS NULL RETURNING id', [id]);
    if (!rows[0]) throw notFound(ruleNotFound);
    await audit(q, { actorId: userId, action: 'delete', entity: 'rule', count: 1, details: { rule_id: id } });
  });
}

/**
 * Today's fill of the rules, for live bars. `version` sums today's counts and the latest
 * delivery time: any delivery, and any new rule or report, changes it.
 */
export async function rulesToday(db: Queryable, customerId: number): Promise<RulesTodayResponse> {
  const day = today();
  const { rows } = await db.query<{ id: number; count: number; leads_number: number; at: string | null }>(
    `SELECT r.id, COALESCE(rep.count, 0) AS count, r.leads_number, to_json(rep.last_delivery_at) #>> '{}' AS at
       FROM rules r LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = $1::date
      WHERE r.deleted_at IS NULL AND ($2::int = 0 OR r.customer_id = $2) ORDER BY r.id`,
    [day, customerId],
  );
  const total = rows.reduce((n, r) => n + r.count, 0);
  const latest = rows.reduce((m, r) => (r.at && r.at > m ? r.at : m), '');
  const caps = rows.reduce((n, r) => (n * 31 + r.id * 7 + r.leads_number) % 1_000_000_007, 0);
  return {
    date: day,
    version: `${day}.${rows.length}.${total}.${caps}.${Date.parse(latest) || 0}`,
    data: rows.map(({ id, count, leads_number }) => ({ id, count, leads_number })),
  };
}
