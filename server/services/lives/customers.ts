import { frenchOrder } from '../../db/french-order';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Customer, customerCreateRequest, customerUpdateRequest } from '../../../src/api/customers/contract';
import type { Db, Queryable } from '../../db/connection';
import { conflict, notFound } from '../../errors';
import { audit } from '../audit';
import { parisMonthSql } from '../sales/months';

export const customerNotFound = 'Client introuvable';
const emailTaken = () => conflict('Un client existe déjà avec cette adresse email');
const newSecret = () => randomBytes(32).toString('base64url');

const customerSql = `
  SELECT c.id, c.name, c.email, c.active, c.webhook_url, c.webhook_secret, to_json(c.webhook_paused_at) #>> '{}' AS webhook_paused_at, c.dedupe_days, to_json(c.created_at) #>> '{}' AS created_at,
         c.default_price_cents, c.monthly_budget_cents::float8 AS monthly_budget_cents, c.return_days, c.max_return_rate::float8 AS max_return_rate,
         COALESCE((SELECT (m.sold_cents - m.credits_cents)::float8 FROM customer_months m
                    WHERE m.customer_id = c.id AND m.month = ${parisMonthSql}), 0) AS month_revenue_cents,
         COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'active', r.active) ORDER BY ${frenchOrder('r.name')}, r.id)
                     FROM rules r WHERE r.customer_id = c.id AND r.deleted_at IS NULL), '[]') AS rules
    FROM customers c`;

export async function listCustomers(db: Queryable): Promise<Customer[]> {
  return (await db.query<Customer>(`${customerSql} ORDER BY ${frenchOrder('c.name')}, c.id`)).rows;
}

export async function getCustomer(db: Queryable, id: number): Promise<Customer> {
  const customer = (await db.query<Customer>(`${customerSql} WHERE c.id = $1`, [id])).rows[0];
  if (!customer) throw notFound(customerNotFound);
  return customer;
}

/** A new customer, logged in the same transaction; its email must be free (409), a webhook gets its signing key. */
export async function createCustomer(db: Db, userId: number, input: z.output<typeof customerCreateRequest>): Promise<Customer> {
  const webhook = input.webhook_url ?? null;
  return db.tx(async (q) => {
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO customers (name, email, webhook_url, webhook_secret, dedupe_days, default_price_cents, monthly_budget_cents, return_days, max_return_rate)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (lower(email)) DO NOTHING RETURNING id`,
      [
        input.name,
        input.email,
        webhook,
        webhook ? newSecret() : null,
        input.dedupe_days,
        input.default_price_cents,
        input.monthly_budget_cents,
        input.return_days,
        input.max_return_rate,
      ],
    );
    if (!rows[0]) throw emailTaken();
    await audit(q, { actorId: userId, action: 'create', entity: 'customer', count: 1, details: { customer_id: rows[0].id } });
    return getCustomer(q, rows[0].id);
  });
}

/** Changes only the fields sent, logged in the same transaction; pausing a customer pauses its rules for the engine. */
export async function updateCustomer(db: Db, userId: number, id: number, input: z.output<typeof customerUpdateRequest>): Promise<Customer> {
  return db.tx((q) => updateIn(q, userId, id, input));
}

async function updateIn(db: Queryable, userId: number, id: number, input: z.output<typeof customerUpdateRequest>): Promise<Customer> {
  // Locked: of two edits at once, the second reads what the first wrote instead of undoing it.
  await db.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [id]);
  const current = await getCustomer(db, id);
  const webhook = input.webhook_url === undefined ? current.webhook_url : input.webhook_url;
  const secret = !webhook ? null : input.rotate_webhook_secret || !current.webhook_secret ? newSecret() : current.webhook_secret;
  try {
    await db.query(
      `UPDATE customers SET name = $2, email = $3, active = $4, webhook_url = $5, webhook_secret = $6, dedupe_days = $7,
              default_price_cents = $8, monthly_budget_cents = $9, return_days = $10, max_return_rate = $11 WHERE id = $1`,
      [
        id,
        input.name ?? current.name,
        input.email ?? current.email,
        input.active ?? current.active,
        webhook,
        secret,
        input.dedupe_days ?? current.dedupe_days,
        input.default_price_cents ?? current.default_price_cents,
        input.monthly_budget_cents === undefined ? current.monthly_budget_cents : input.monthly_budget_cents,
        input.return_days ?? current.return_days,
        input.max_return_rate === undefined ? current.max_return_rate : input.max_return_rate,
      ],
    );
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw emailTaken();
    throw err;
  }
  await audit(db, { actorId: userId, action: 'update', entity: 'customer', count: 1, details: { customer_id: id, fields: Object.keys(input) } });
  return getCustomer(db, id);
}
