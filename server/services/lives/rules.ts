import { frenchOrder } from '../../db/french-order';
import type { z } from 'zod';
import { weekdays, type Rule, type ruleCreateRequest, type RuleFilter, type ruleUpdateRequest, type RulesTodayResponse } from '../../../src/api/rules/contract';
import { filterErrors } from '../../../src/api/rules/filters';
import type { LandingColumn } from '../../../src/api/landings/contract';
import type { Db, Queryable } from '../../db/connection';
import { notFound, validationFailed } from '../../errors';
import { audit } from '../audit';
import { minuteOf, parisClock } from '../delivery/paris-time';
import { expectedFullAt } from './forecast';

export const ruleNotFound = 'Règle introuvable';

/**
 * Sales of the rules `rules` selects (SQL of rule ids) in their capped windows: the current Paris
 * wall-clock hour, ISO week and calendar month ($1 is the moment, as a timestamptz), read from the
 * engine's own counters (rule_windows, migration 087), so the list shows what the caps are judged
 * on, at three key lookups a rule. A rule's uncapped windows are null, not counted.
 */
const soldSql = (rules: string) => `
  sold AS (
    SELECT r.id AS rule_id,
           CASE WHEN r.cap_hour IS NOT NULL THEN COALESCE(h.count, 0) END AS hour,
           CASE WHEN r.cap_week IS NOT NULL THEN COALESCE(wk.count, 0) END AS week,
           CASE WHEN r.cap_month IS NOT NULL THEN COALESCE(m.count, 0) END AS month
      FROM (SELECT $1::timestamptz AT TIME ZONE 'Europe/Paris' AS local) now
      JOIN rules r ON r.id IN (${rules}) AND (r.cap_hour IS NOT NULL OR r.cap_week IS NOT NULL OR r.cap_month IS NOT NULL)
      LEFT JOIN rule_windows h ON h.rule_id = r.id AND h.span = 'hour' AND h.start = date_trunc('hour', now.local)
      LEFT JOIN rule_windows wk ON wk.rule_id = r.id AND wk.span = 'week' AND wk.start = date_trunc('week', now.local)
      LEFT JOIN rule_windows m ON m.rule_id = r.id AND m.span = 'month' AND m.start = date_trunc('month', now.local)
  )`;

/** The rules of a list: one customer's ($3), or all (0). */
const listedRules = 'SELECT id FROM rules WHERE deleted_at IS NULL AND ($3::int = 0 OR customer_id = $3)';

const soldJson = `json_build_object('hour', s.hour, 'week', s.week, 'month', s.month)`;

const ruleSql = (rules: string) => `
  WITH ${soldSql(rules)}
  SELECT r.id, r.name, r.customer_id, c.name AS customer_name, c.active AS customer_active,
         COALESCE((SELECT json_agg(json_build_object('id', l.id, 'name', l.name) ORDER BY ${frenchOrder('l.name')}, l.id)
                     FROM landings l WHERE l.id = ANY(r.landing_ids)), '[]') AS landings,
         r.zip, json_build_object('start', r.hour_start, 'end', r.hour_end) AS hours, r.leads_number,
         r.monday, r.tuesday, r.wednesday, r.thursday, r.friday, r.saturday, r.sunday, r.active,
         json_build_object('hour', r.cap_hour, 'week', r.cap_week, 'month', r.cap_month) AS caps,
         r.priority, r.weight, r.filters, r.exclusive, r.price_cents,
         json_build_object('count', COALESCE(rep.count, 0), 'leads_number', r.leads_number) AS today,
         ${soldJson} AS sold,
         to_json(r.created_at) #>> '{}' AS created_at
    FROM rules r
    JOIN customers c ON c.id = r.customer_id
    LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = $2::date
    LEFT JOIN sold s ON s.rule_id = r.id`;

/** The moment a list is read at, and its Paris day (today's report). */
const now = () => {
  const at = new Date();
  return { at: at.toISOString(), day: parisClock(at).day };
};
const today = () => now().day;

/** Rules not deleted, of one customer or of all (customerId 0), by customer then name. */
export async function listRules(db: Queryable, customerId: number): Promise<Rule[]> {
  const { at, day } = now();
  const { rows } = await db.query<Rule>(
    `${ruleSql(listedRules)} WHERE r.deleted_at IS NULL AND ($3::int = 0 OR r.customer_id = $3) ORDER BY ${frenchOrder('c.name')}, ${frenchOrder('r.name')}, r.id`,
    [at, day, customerId],
  );
  return withForecast(db, rows);
}

/** Each rule's `today` with its cap forecast (forecast.ts). */
async function withForecast(db: Queryable, rules: Rule[]): Promise<Rule[]> {
  const forecast = await expectedFullAt(
    db,
    rules.map((r) => r.id),
  );
  return rules.map((r) => ({ ...r, today: { ...r.today, expected_full_at: forecast.get(r.id) ?? null } }));
}

export async function getRule(db: Queryable, id: number): Promise<Rule> {
  const { at, day } = now();
  const rule = (await db.query<Rule>(`${ruleSql('$3')} WHERE r.id = $3 AND r.deleted_at IS NULL`, [at, day, id])).rows[0];
  if (!rule) throw notFound(ruleNotFound);
  return (await withForecast(db, [rule]))[0];
}

/**
 * Unknown customer or landings are the form's fault: 422 naming the field; so is a filter that
 * does not fit one of the rule's landings (`filters.N`), checked whenever the landings or the
 * filters change, against the rule as it will be.
 */
async function checkReferences(q: Queryable, customerId: number | undefined, landings: number[], filters: readonly RuleFilter[]) {
  const errors = await referenceErrors(q, customerId, landings, filters);
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** The faults checkReferences refuses a rule for, by field (none: {}); the simulation names them under its draft. */
export async function referenceErrors(
  q: Queryable,
  customerId: number | undefined,
  landings: number[],
  filters: readonly RuleFilter[],
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  if (customerId !== undefined && !(await q.query('SELECT 1 FROM customers WHERE id = $1', [customerId])).rows[0]) errors.customer_id = 'Client inconnu';
  const { rows } = await q.query<{ id: number; name: string; columns: LandingColumn[] }>('SELECT id, name, columns FROM landings WHERE id = ANY($1::int[])', [
    landings,
  ]);
  const known = new Set(rows.map((r) => r.id));
  const unknown = landings.filter((id) => !known.has(id));
  if (unknown.length) errors.landings = `Landing inconnue : ${unknown.join(', ')}`;
  Object.assign(errors, filterErrors(filters, rows));
  return errors;
}

type RuleInput = z.output<typeof ruleCreateRequest>;

export async function createRule(db: Db, userId: number, input: RuleInput): Promise<Rule> {
  return db.tx(async (q) => {
    await checkReferences(q, input.customer_id, input.landings, input.filters);
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO rules (name, customer_id, landing_ids, zip, hour_start, hour_end, leads_number, active,
                          monday, tuesday, wednesday, thursday, friday, saturday, sunday,
                          cap_hour, cap_week, cap_month, priority, weight, filters, exclusive, price_cents)
       VALUES ($1, $2, $3::int[], $4::text[], $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
               $16, $17, $18, $19, $20, $21::jsonb, $22, $23) RETURNING id`,
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
        input.caps.hour,
        input.caps.week,
        input.caps.month,
        input.priority,
        input.weight,
        JSON.stringify(input.filters),
        input.exclusive,
        input.price_cents,
      ],
    );
    await audit(q, { actorId: userId, action: 'create', entity: 'rule', count: 1, details: { rule_id: rows[0].id } });
    return getRule(q, rows[0].id);
  });
}

/** Edits, pauses or resumes: only the fields sent change. */
export async function updateRule(db: Db, userId: number, id: number, input: z.output<typeof ruleUpdateRequest>): Promise<Rule> {
  return db.tx(async (q) => {
    const locked = await q.query<{ landing_ids: number[]; filters: RuleFilter[] }>(
      'SELECT landing_ids, filters FROM rules WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
      [id],
    );
    const current = locked.rows[0];
    if (!current) throw notFound(ruleNotFound);
    await checkReferences(q, input.customer_id, input.landings ?? current.landing_ids, input.filters ?? current.filters);
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
    if (input.caps?.hour !== undefined) set('cap_hour', input.caps.hour);
    if (input.caps?.week !== undefined) set('cap_week', input.caps.week);
    if (input.caps?.month !== undefined) set('cap_month', input.caps.month);
    if (input.priority !== undefined) set('priority', input.priority);
    if (input.weight !== undefined) set('weight', input.weight);
    if (input.filters !== undefined) set('filters', JSON.stringify(input.filters), '::jsonb');
    if (input.exclusive !== undefined) set('exclusive', input.exclusive);
    if (input.price_cents !== undefined) set('price_cents', input.price_cents);
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
 * delivery time: any delivery, and any new rule or report, changes it; so does a forecast that
 * moves with the hour. Null when it equals `since`: nothing changed.
 */
export async function rulesToday(db: Queryable, customerId: number, since?: string): Promise<RulesTodayResponse | null> {
  const { at: moment, day } = now();
  const { rows } = await db.query<{ id: number; count: number; leads_number: number; sold: RulesTodayResponse['data'][number]['sold']; at: string | null }>(
    `WITH ${soldSql(listedRules)}
     SELECT r.id, COALESCE(rep.count, 0) AS count, r.leads_number, ${soldJson} AS sold, to_json(rep.last_delivery_at) #>> '{}' AS at
       FROM rules r LEFT JOIN reports rep ON rep.rule_id = r.id AND rep.date = $2::date
       LEFT JOIN sold s ON s.rule_id = r.id
      WHERE r.deleted_at IS NULL AND ($3::int = 0 OR r.customer_id = $3) ORDER BY r.id`,
    [moment, day, customerId],
  );
  // Export sales and the hour's turn move the windows without a report's delivery: they count too.
  const total = rows.reduce((n, r) => n + r.count + (r.sold.hour ?? 0) * 3 + (r.sold.week ?? 0) * 5 + (r.sold.month ?? 0) * 7, 0);
  const latest = rows.reduce((m, r) => (r.at && r.at > m ? r.at : m), '');
  const caps = rows.reduce((n, r) => (n * 31 + r.id * 7 + r.leads_number) % 1_000_000_007, 0);
  const forecast = await expectedFullAt(
    db,
    rows.map((r) => r.id),
    new Date(moment),
  );
  const expected = [...forecast].reduce((n, [id, at]) => (at ? (n * 31 + id * 1440 + minuteOf(at)) % 1_000_000_007 : n), 0);
  const version = `${day}.${rows.length}.${total}.${caps}.${Date.parse(latest) || 0}.${expected}`;
  if (version === since) return null;
  return {
    date: day,
    version,
    data: rows.map(({ id, count, leads_number, sold }) => ({ id, count, leads_number, expected_full_at: forecast.get(id) ?? null, sold })),
  };
}
