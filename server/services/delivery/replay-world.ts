import { leadFilterColumns, weekdays } from '../../../src/api/rules/contract';
import type { LandingColumn } from '../../../src/api/landings/contract';
import type { AppContext } from '../../context';
import type { Db, Queryable } from '../../db/connection';
import { defineQueue } from '../jobs';
import {
  carryJudged,
  resumeReplay,
  type Credit,
  type PastSale,
  type Replayed,
  type ReplayCustomer,
  type ReplayProgress,
  type ReplayRule,
  type ReplayWorld,
} from './replay';
import { appendLeads, personIndex, type LeadRows, type ReplayLeads } from './replay-leads';

/**
 * The world a what-if simulation replays (issue 27): the rules of the draft's landings, their
 * customers and landings, the leads of those landings since the first Paris day and the
 * customers' recorded sales and returns. The leads and the sales, the bulk of it, are kept in
 * memory per instance between simulations and brought up to date at each one from the changes
 * committed since (migration 125, `world_changes`): new leads appended, new sales inserted in
 * their place, anything else read again whole (docs/architecture.md, 'What-if').
 */

/** The rules as the replay reads them ($1: their ids, or null for every rule of the landings $2), as one JSON array: one parse, not a row object decoded per rule. */
export const rulesSql = `
  SELECT coalesce(json_agg(json_build_object(
           'id', r.id, 'name', r.name, 'customer_id', r.customer_id, 'landing_ids', r.landing_ids, 'zip', r.zip, 'active', r.active,
           'hour_start', r.hour_start, 'hour_end', r.hour_end, 'leads_number', r.leads_number,
           'days', json_build_object(${weekdays.map((d) => `'${d}', r.${d}`).join(', ')}),
           'caps', json_build_object('hour', r.cap_hour, 'week', r.cap_week, 'month', r.cap_month),
           'priority', r.priority, 'weight', r.weight, 'filters', r.filters, 'exclusive', r.exclusive, 'price_cents', r.price_cents
         ) ORDER BY r.id), '[]') AS rules
    FROM rules r
   WHERE r.deleted_at IS NULL AND (r.id = ANY($1::int[]) OR r.landing_ids && $2::int[])`;

/** The customers and the landings as JSON text: compared with the text the kept world was made with before any parse. */
const customersSql = `
  SELECT coalesce(json_agg(json_build_object('id', id, 'name', name, 'active', active, 'dedupe_days', dedupe_days,
           'default_price_cents', default_price_cents, 'monthly_budget_cents', monthly_budget_cents::float8) ORDER BY id), '[]')::text AS customers
    FROM customers WHERE id = ANY($1::int[])`;
const landingsSql = `
  SELECT coalesce(json_agg(json_build_object('id', id, 'columns', columns, 'max_buyers', max_buyers) ORDER BY id), '[]')::text AS landings
    FROM landings WHERE id = ANY($1::int[])`;

/** Where the replay starts (Paris midnight of its first day), and the week and month that moment belongs to. */
const startSql = `
  SELECT (extract(epoch FROM t0) * 1000)::float8 AS t0,
         (extract(epoch FROM date_trunc('week', t0 AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris') * 1000)::float8 AS week,
         (extract(epoch FROM date_trunc('month', t0 AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris') * 1000)::float8 AS month
    FROM (SELECT $1::date::timestamp AT TIME ZONE 'Europe/Paris' AS t0) s`;

/**
 * The leads of the landings that arrived since `$2` and were offered to the engine, or would have
 * been (new and never routed), in arrival order, as columns: one JSON array per column (a single
 * JSON.parse of strings and numbers, no object per lead). Only the columns the rules concerned
 * read (`read`: name → SQL, null when no rule reads it: postal codes when a rule names one, the
 * person when a customer dedupes, the form values a filter names); the form keys as parameters,
 * one per landing group (`keyOf`): a key read from a joined row costs the statement five times as
 * much. `only`: the SQL of a further condition (some leads by id).
 */
const leadsSql = (read: Record<string, string | null>, only = '') => {
  const columns = Object.entries(read).filter((c): c is [string, string] => c[1] !== null);
  return `
  SELECT json_build_array(${columns.map(([name]) => `json_agg(${name} ORDER BY at, id)`).join(', ')}) AS leads
    FROM (SELECT ${columns.map(([name, sql]) => `${sql} AS ${name}`).join(', ')}
            FROM leads l LEFT JOIN lead_routings lr ON lr.lead_id = l.id
           WHERE l.landing_id = ANY($1::int[]) AND l.created_at >= $2 ${only}
             AND (lr.outcome IN ('delivered', 'unmatched') OR (lr.lead_id IS NULL AND l.entry_status = 'new'))) l`;
};

/**
 * The SQL of a lead's value of its landing's first column of `type` (as personOf and
 * landing_column_key find it): the key a parameter (`params` gets it), one CASE branch per key
 * when the landings differ.
 */
function keyOf(landings: Array<{ id: number; columns: LandingColumn[] }>, type: LandingColumn['type'], params: unknown[]): string {
  const groups = new Map<string | undefined, number[]>();
  for (const l of landings) {
    const key = l.columns.find((c) => c.type === type)?.key;
    groups.set(key, [...(groups.get(key) ?? []), l.id]);
  }
  const value = (key: string | undefined) => (key === undefined ? 'NULL::text' : `l.data ->> $${params.push(key)}::text`);
  if (groups.size === 1) return value([...groups.keys()][0]);
  return `CASE ${[...groups].map(([key, ids]) => `WHEN l.landing_id = ANY($${params.push(ids)}::int[]) THEN ${value(key)}`).join(' ')} END`;
}

/**
 * The recorded sales to the customers that count before and during the replay: sold since `$2`
 * (the dedupe windows, the week and month the replay starts in), or returned since `$3` (the
 * month's credits), in time order, as columns (see leadsSql). `only`: a further condition.
 */
const salesSql = (only = '') => `
  SELECT json_build_array(${['id', 'lead_id', 'customer_id', 'rule_id', 'price_cents', 'phone', 'email', 'at', 'returned_at'].map((c) => `json_agg(${c} ORDER BY at, id)`).join(', ')}) AS sales
    FROM (SELECT s.id, s.lead_id, s.customer_id, CASE WHEN s.channel = 'live' THEN s.rule_id END AS rule_id, s.price_cents, s.phone, s.email,
                 (extract(epoch FROM s.sold_at) * 1000)::float8 AS at, (extract(epoch FROM s.returned_at) * 1000)::float8 AS returned_at
            FROM lead_sales s
           WHERE s.customer_id = ANY($1::int[]) AND (s.sold_at >= $2 OR s.returned_at >= $3) ${only}) s`;

/** The sale columns of salesSql. */
type SaleColumns = [
  id: number[],
  lead_id: number[],
  customer_id: number[],
  rule_id: Array<number | null>,
  price_cents: number[],
  phone: Array<string | null>,
  email: Array<string | null>,
  at: number[],
  returned_at: Array<number | null>,
];

/** What the world is read with: the lead columns the rules read, the customers whose sales count and since when. */
interface Spec {
  postal: boolean;
  person: boolean;
  /** The filtered columns: lead columns (source, utm_*) and form keys. */
  named: string[];
  customers: number[];
  since: number;
}

const covers = (kept: Spec, needed: Spec) =>
  (kept.postal || !needed.postal) &&
  (kept.person || !needed.person) &&
  needed.named.every((c) => kept.named.includes(c)) &&
  needed.customers.every((c) => kept.customers.includes(c)) &&
  kept.since <= needed.since;

const union = (a: Spec, b: Spec): Spec => ({
  postal: a.postal || b.postal,
  person: a.person || b.person,
  named: [...new Set([...a.named, ...b.named])],
  customers: [...new Set([...a.customers, ...b.customers])],
  since: Math.min(a.since, b.since),
});

/** The replayed leads and sales as kept: the sales the replay reads (past, credits), with what placing a new one and appending a lead need. */
interface Kept {
  spec: Spec;
  /** The database snapshot (pg_snapshot text) the leads and sales are as of. */
  snapshot: string;
  leads: ReplayLeads;
  /** Lead id → rank in `leads`. */
  rank: Map<number, number>;
  past: PastSale[];
  /** Each past sale's (sold at, id): the order a new one takes its place in. */
  pastOrder: Array<[number, number]>;
  credits: Credit[];
  /** Leads whose sales would be read otherwise if they became replayed (a live sale since t0 kept as past, a credit without its lead): such a lead appended, everything is read again. */
  watched: Set<number>;
}

/** The Paris start of the replay. */
interface Start {
  t0: number;
  week: number;
  month: number;
}

/** The rules, customers and landings as read for one simulation (small: read each time), and the spec they need. */
interface Small {
  rulesText: string;
  rules: ReplayRule[];
  customersText: string;
  customers: ReplayCustomer[];
  landingsText: string;
  landings: Array<{ id: number; columns: LandingColumn[]; max_buyers: number }>;
  needed: Spec;
}

async function readSmall(q: Queryable, landings: number[], extra: ReplayRule[], start: Start, keptCustomers: number[]): Promise<Small> {
  const rulesText = (await q.query<{ rules: string }>(`SELECT rules::text AS rules FROM (${rulesSql}) r`, [[], landings])).rows[0].rules;
  const rules = JSON.parse(rulesText) as ReplayRule[];
  const all = [...rules, ...extra];
  const customerIds = [...new Set([...all.map((r) => r.customer_id), ...keptCustomers])].sort((a, b) => a - b);
  const landingIds = [...new Set([...landings, ...all.flatMap((r) => r.landing_ids)])].sort((a, b) => a - b);
  const customersText = (await q.query<{ customers: string }>(customersSql, [customerIds])).rows[0].customers;
  const landingsText = (await q.query<{ landings: string }>(landingsSql, [landingIds])).rows[0].landings;
  const customers = JSON.parse(customersText) as ReplayCustomer[];
  const used = new Set(all.map((r) => r.customer_id));
  const maxDedupe = Math.max(0, ...customers.filter((c) => used.has(c.id)).map((c) => c.dedupe_days));
  return {
    rulesText,
    rules,
    customersText,
    customers,
    landingsText,
    landings: JSON.parse(landingsText) as Small['landings'],
    needed: {
      postal: all.some((r) => r.zip.some((z) => /^\d{5}$/.test(z))),
      person: customers.some((c) => used.has(c.id) && c.dedupe_days > 0),
      named: [...new Set(all.flatMap((r) => r.filters.map((f) => f.column)))],
      customers: [...used],
      since: Math.min(start.t0 - maxDedupe * 86_400_000, start.week, start.month),
    },
  };
}

/** The leads of `landings` as `spec` reads them (`ids`: only those). */
async function readLeads(q: Queryable, spec: Spec, landings: Small['landings'], replayed: number[], t0: number, ids?: number[]): Promise<LeadRows> {
  const here = landings.filter((l) => replayed.includes(l.id));
  const keys = spec.named.filter((c) => !(leadFilterColumns as readonly string[]).includes(c));
  const params: unknown[] = [replayed, new Date(t0)];
  const only = ids ? `AND l.id = ANY($${params.push(ids)}::bigint[])` : '';
  const read: Record<string, string | null> = {
    id: 'l.id',
    landing_id: 'l.landing_id',
    at: '(extract(epoch FROM l.created_at) * 1000)::float8',
    departement: 'l.departement',
    postal_code: spec.postal ? keyOf(here, 'postal_code', params) : null,
    phone: spec.person ? keyOf(here, 'phone', params) : null,
    email: spec.person ? keyOf(here, 'email', params) : null,
    ...Object.fromEntries(leadFilterColumns.map((c) => [c, spec.named.includes(c) ? `l.${c}` : null])),
    ...Object.fromEntries(keys.map((key, i) => [`f${i}`, `l.data -> $${params.push(key)}::text`])),
  };
  const { rows: answer } = await q.query<{ leads: unknown[][] }>(leadsSql(read, only), params);
  const answered = Object.keys(read).filter((name) => read[name] !== null);
  /** A column as answered; one no rule reads: nothing (every lead's value undefined, read as null). */
  const column = <T>(name: string): T[] => (read[name] === null ? [] : ((answer[0].leads[answered.indexOf(name)] ?? []) as T[]));
  return {
    id: column<number>('id'),
    landing_id: column<number>('landing_id'),
    at: column<number>('at'),
    departement: column<string | null>('departement'),
    postal_code: column<string | null>('postal_code'),
    phone: column<string | null>('phone'),
    email: column<string | null>('email'),
    fields: Object.fromEntries([
      ...leadFilterColumns.filter((c) => spec.named.includes(c)).map((c): [string, unknown[]] => [c, column<unknown>(c)]),
      ...keys.map((key, i): [string, unknown[]] => [key, column<unknown>(`f${i}`)]),
    ]),
  };
}

async function readSales(q: Queryable, spec: Spec, start: Start, ids?: number[]): Promise<SaleColumns> {
  const params: unknown[] = [spec.customers, new Date(spec.since), new Date(start.month)];
  const only = ids ? `AND s.id = ANY($${params.push(ids)}::bigint[])` : '';
  const { rows } = await q.query<{ sales: SaleColumns }>(salesSql(only), params);
  return rows[0].sales.map((column) => column ?? []) as SaleColumns;
}

/**
 * Places sales (columns, in time order) in `kept`: a live sale of a replayed lead since t0 is the
 * replay's to decide again (left out), any other sold since `since` is past, a return since the
 * month a credit. Answers false when one cannot be placed after the fact (a sale returned already).
 */
function placeSales(kept: Kept, start: Start, sales: SaleColumns, appending: boolean): number | false {
  let earliest = Infinity;
  // New arrays: a simulation replaying the world as it was may still hold the old ones.
  kept.past = kept.past.slice();
  kept.pastOrder = kept.pastOrder.slice();
  const [ids, leadIds, customerOf, ruleOf, prices, phones, emails, soldAt, returnedAt] = sales;
  for (let n = 0; n < ids.length; n++) {
    const [at, customer_id, rule_id, price_cents, returned] = [soldAt[n], customerOf[n], ruleOf[n], prices[n], returnedAt[n]];
    const lead = rule_id !== null && at >= start.t0 ? kept.rank.get(leadIds[n]) : undefined;
    if (lead === undefined && at >= kept.spec.since) {
      const sale: PastSale = {
        at,
        customer_id,
        rule_id,
        price_cents,
        phone: personIndex(kept.leads.persons.phones, phones[n]),
        email: personIndex(kept.leads.persons.emails, emails[n]),
      };
      // In (sold at, id) order: a sale committed late may have been sold before the last one kept.
      let k = kept.past.length;
      while (k > 0 && (kept.pastOrder[k - 1][0] > at || (kept.pastOrder[k - 1][0] === at && kept.pastOrder[k - 1][1] > ids[n]))) k--;
      kept.past.splice(k, 0, sale);
      earliest = Math.min(earliest, at);
      kept.pastOrder.splice(k, 0, [at, ids[n]]);
      if (rule_id !== null && at >= start.t0) kept.watched.add(leadIds[n]);
    }
    if (returned !== null && returned >= start.month) {
      if (appending) return false;
      kept.credits.push({ at: returned, customer_id, price_cents, ...(lead !== undefined ? { lead } : {}) });
      if (lead === undefined) kept.watched.add(leadIds[n]);
    }
  }
  kept.credits.sort((a, b) => a.at - b.at);
  return earliest;
}

const snapshotSql = 'SELECT pg_current_snapshot()::text AS snapshot';

/** Everything read again: the leads and sales as of the transaction's snapshot. */
async function readKept(q: Queryable, spec: Spec, small: Small, replayed: number[], start: Start): Promise<Kept> {
  const { snapshot } = (await q.query<{ snapshot: string }>(snapshotSql)).rows[0];
  const leads = appendLeads(undefined, await readLeads(q, spec, small.landings, replayed, start.t0));
  const kept: Kept = {
    spec,
    snapshot,
    leads,
    rank: new Map(Array.from(leads.id, (id, n) => [id, n])),
    past: [],
    pastOrder: [],
    credits: [],
    watched: new Set(),
  };
  placeSales(kept, start, await readSales(q, spec, start), false);
  return kept;
}

/**
 * The changes committed since `kept.snapshot` applied to it, as of the transaction's snapshot:
 * leads touched (stored, routed, changed status, deleted) read again by id, those now replayed
 * and arriving after the last kept one appended, new sales placed. Answers false when a change
 * cannot be applied so (a kept lead no longer replayed, one arriving before the last, a sale
 * changed or deleted, a lead's fields changed, changes purged unseen): then everything is read again.
 * Else answers whether anything changed, and when the earliest sale placed was sold (Infinity: none).
 */
async function refreshKept(q: Queryable, kept: Kept, small: Small, replayed: number[], start: Start): Promise<{ changed: boolean; earliest: number } | false> {
  const { rows } = await q.query<{ snapshot: string; missed: boolean; changes: Array<{ source: string; ids: number[] | null }> }>(
    `SELECT pg_current_snapshot()::text AS snapshot,
            (SELECT through >= pg_snapshot_xmin($1::pg_snapshot)::text::bigint FROM world_changes_purged) AS missed,
            (SELECT coalesce(json_agg(json_build_object('source', source, 'ids', ids) ORDER BY id), '[]') FROM world_changes
              WHERE xid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(xid, $1::pg_snapshot)) AS changes`,
    [kept.snapshot],
  );
  const { snapshot, missed, changes } = rows[0];
  if (missed || changes.some((c) => c.source === 'reread')) return false;
  const touched = [...new Set(changes.flatMap((c) => (c.source === 'leads' ? c.ids! : [])))];
  let changed = false;
  if (touched.length) {
    const rows = await readLeads(q, kept.spec, small.landings, replayed, start.t0, touched);
    const replayedNow = new Set(rows.id);
    if (touched.some((id) => kept.rank.has(id) && !replayedNow.has(id))) return false;
    const fresh = rows.id.map((id, r) => (kept.rank.has(id) ? -1 : r)).filter((r) => r >= 0);
    if (fresh.length) {
      const last = kept.leads.length - 1;
      const first = fresh[0];
      if (last >= 0 && (rows.at[first] < kept.leads.at[last] || (rows.at[first] === kept.leads.at[last] && rows.id[first] < kept.leads.id[last]))) return false;
      if (fresh.some((r) => kept.watched.has(rows.id[r]))) return false;
      const pick = <T>(column: T[] | undefined) => column && fresh.map((r) => column[r]);
      kept.leads = appendLeads(kept.leads, {
        id: pick(rows.id)!,
        landing_id: pick(rows.landing_id)!,
        at: pick(rows.at)!,
        departement: pick(rows.departement)!,
        postal_code: pick(rows.postal_code),
        phone: pick(rows.phone),
        email: pick(rows.email),
        fields: Object.fromEntries(Object.entries(rows.fields).map(([c, values]) => [c, pick(values)!])),
      });
      for (let n = last + 1; n < kept.leads.length; n++) kept.rank.set(kept.leads.id[n], n);
      changed = true;
    }
  }
  const sold = [...new Set(changes.flatMap((c) => (c.source === 'sales' ? c.ids! : [])))];
  const earliest = sold.length ? placeSales(kept, start, await readSales(q, kept.spec, start, sold), true) : Infinity;
  if (earliest === false) return false;
  kept.snapshot = snapshot;
  return { changed: changed || sold.length > 0, earliest };
}

/** A world kept by an instance: its leads and sales, and what the simulations made of them. */
interface Entry {
  start: Start;
  kept: Kept;
  /** Bumped at every change applied: the replay without a draft is kept for one version of the world and one text of the rules, customers and landings. */
  version: number;
  /** The world as the replays read it, for one version and one text of the customers and landings. */
  world?: { version: number; texts: string; world: ReplayWorld };
  /**
   * The replay without a draft: for one text of the rules, customers and landings, made up to the
   * world's `version`, gone on with over the leads appended since while every sale placed since
   * (`placed`: the earliest sold) came after its last lead.
   */
  before?: { key: string; version: number; replayed: Replayed; progress: ReplayProgress; last: number };
  placed: number;
  idle?: NodeJS.Timeout;
}

/** A kept world is dropped after this long unused; at most this many are kept (one per set of landings and first day). */
const IDLE_MS = 10 * 60_000;
const KEPT = 2;
const worldsOf = new WeakMap<Queryable, Map<string, Entry>>();
const turns = new WeakMap<Queryable, Promise<unknown>>();

/** The worlds kept for a database, with their sizes: what the bench reports. */
export function keptWorlds(db: Queryable): Array<{ key: string; version: number; leads: number; past: number }> {
  return [...(worldsOf.get(db) ?? new Map<string, Entry>())].map(([key, e]) => ({
    key,
    version: e.version,
    leads: e.kept.leads.length,
    past: e.kept.past.length,
  }));
}

export interface SimulatedWorld {
  world: ReplayWorld;
  rules: ReplayRule[];
  /** The replay with the rules as they are (no draft): kept with the world while neither changes. */
  before: () => Replayed;
}

/**
 * The world of a simulation of `landings` from `firstDay`, with the draft's rule (`extra`): the
 * kept one brought up to date, or read whole (then kept) when there is none, when it lacks a
 * column or a customer the draft needs, or when a change cannot be applied to it. Read in one
 * transaction (REPEATABLE READ on PostgreSQL): the answer is that of a fresh read at that instant.
 */
export async function simulatedWorld(db: Db, opts: { landings: number[]; firstDay: string; extra: ReplayRule[] }): Promise<SimulatedWorld> {
  const replayed = [...new Set(opts.landings)].sort((a, b) => a - b);
  const key = `${replayed.join(',')}|${opts.firstDay}`;
  const worlds = worldsOf.get(db) ?? worldsOf.set(db, new Map()).get(db)!;
  const readWorld = () =>
    db.tx(async (q) => {
      if (db.parallel) await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      let entry = worlds.get(key);
      const start = entry?.start ?? (await q.query<Start>(startSql, [opts.firstDay])).rows[0];
      const small = await readSmall(q, replayed, opts.extra, start, entry?.kept.spec.customers ?? []);
      const refreshed = entry && covers(entry.kept.spec, small.needed) ? await refreshKept(q, entry.kept, small, replayed, start) : false;
      if (entry && refreshed) {
        if (refreshed.changed) entry.version++;
        entry.placed = Math.min(entry.placed, refreshed.earliest);
      } else
        entry = {
          start,
          kept: await readKept(q, entry ? union(entry.kept.spec, small.needed) : small.needed, small, replayed, start),
          version: 0,
          placed: Infinity,
        };
      return { entry, small };
    });
  // One at a time per instance: two simulations bringing the same world up to date at once would both apply the same changes.
  const turn = (turns.get(db) ?? Promise.resolve()).then(() => readWorld());
  turns.set(
    db,
    turn.catch(() => undefined),
  );
  const { entry, small } = await turn;
  // Most recently used last: the first is the one to drop.
  forget(worlds, key);
  worlds.set(key, entry);
  for (const [k] of [...worlds].slice(0, -KEPT)) forget(worlds, k);
  clearTimeout(entry.idle);
  entry.idle = setTimeout(() => forget(worlds, key), IDLE_MS).unref();

  const texts = `${small.customersText}|${small.landingsText}`;
  if (entry.world?.version !== entry.version || entry.world.texts !== texts) {
    const { kept: k } = entry;
    const world: ReplayWorld = {
      landings: new Map(small.landings.map((l) => [l.id, { columns: l.columns, max_buyers: l.max_buyers }])),
      customers: new Map(small.customers.map((c) => [c.id, c])),
      leads: k.leads,
      past: k.past,
      credits: k.credits,
    };
    // The same world with leads appended: what the replays judged of the others stands.
    if (entry.world?.texts === texts) carryJudged(entry.world.world, world);
    entry.world = { version: entry.version, texts, world };
  }
  const { world } = entry.world;
  const { version } = entry;
  const beforeKey = `${small.customersText}|${small.landingsText}|${small.rulesText}`;
  return {
    world,
    rules: small.rules,
    before: () => {
      const kept = entry.before;
      if (kept?.key === beforeKey && kept.version === version) return kept.replayed;
      // Another simulation brought the world further meanwhile: this one's replayed whole, kept nowhere.
      if (entry.version !== version || (kept && kept.version > version)) return resumeReplay(world, small.rules).replayed;
      const goOn = kept?.key === beforeKey && entry.placed > kept.last ? kept.progress : undefined;
      const { replayed, progress } = resumeReplay(world, small.rules, goOn);
      entry.before = { key: beforeKey, version, replayed, progress, last: world.leads.length ? world.leads.at[world.leads.length - 1] : -Infinity };
      entry.placed = Infinity;
      return replayed;
    },
  };
}

function forget(worlds: Map<string, Entry>, key: string) {
  clearTimeout(worlds.get(key)?.idle);
  worlds.delete(key);
}

/**
 * The world read whole, kept nowhere: what a simulation's answer must equal
 * (tests/api/rules-simulate.test.ts).
 */
export async function loadWorld(
  db: Db,
  opts: { landings: number[]; firstDay: string; extra?: ReplayRule[] },
): Promise<{ world: ReplayWorld; rules: ReplayRule[] }> {
  const replayed = [...new Set(opts.landings)].sort((a, b) => a - b);
  return db.tx(async (q) => {
    if (db.parallel) await q.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const start = (await q.query<Start>(startSql, [opts.firstDay])).rows[0];
    const small = await readSmall(q, replayed, opts.extra ?? [], start, []);
    const k = await readKept(q, small.needed, small, replayed, start);
    return {
      world: {
        landings: new Map(small.landings.map((l) => [l.id, { columns: l.columns, max_buyers: l.max_buyers }])),
        customers: new Map(small.customers.map((c) => [c.id, c])),
        leads: k.leads,
        past: k.past,
        credits: k.credits,
      },
      rules: small.rules,
    };
  });
}

export const PURGE_WORLD_CHANGES_JOB = defineQueue('simulate.purge-changes');

/**
 * Deletes the changes older than a quarter of an hour (a kept world unused for ten minutes is
 * dropped) whose transactions have all ended, remembering the largest xid deleted: a kept world
 * whose snapshot had not seen it reads everything again. Answers how many.
 */
export async function purgeWorldChanges(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM world_changes WHERE created_at < now() - interval '15 minutes' AND xid < pg_snapshot_xmin(pg_current_snapshot()) RETURNING xid),
          mark AS (UPDATE world_changes_purged SET through = greatest(through, (SELECT max(xid::text::bigint) FROM gone)) WHERE EXISTS (SELECT 1 FROM gone))
     SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0].n;
}

/** Every five minutes, on one instance: one row per writing statement of leads, routings and sales accrues. */
export function registerWorldJobs(ctx: Pick<AppContext, 'db' | 'jobs'>): void {
  ctx.jobs.register(PURGE_WORLD_CHANGES_JOB, () => purgeWorldChanges(ctx.db).then(() => undefined), { cron: '*/5 * * * *' });
}
