import { randomBytes } from 'node:crypto';
import { hashPassword } from '../services/auth/passwords';
import { seedMoney } from './seed-money';
import type { Db, Queryable } from './connection';
import { bulkInsert, reserveIds } from './bulk';
import { seedAdminDemo } from './seed-admin';
import { COMMON_COLUMNS, DEMO_ACCOUNTS, DEMO_CUSTOMERS, DEMO_LANDINGS, OTHER_BUYERS } from './seed-data';
import { deliverByRules, insertCustomersAndRules, insertRoutings, REPORT_COLUMNS } from './seed-lives';
import { arrivalTime, insertSeedLeads, makeLead, PostalCodePicker, Random, statusFor, type SeedLead, type SeedLanding } from './seed-leads';
import { seedProduction } from './seed-production';
import { seedViews } from './seed-views';

export const DEMO_SEED = 20_260_101;
export const DEMO_LEADS = 20_000;
/** Share of the leads that are the same person sending the same form again. */
const DUPLICATE_SHARE = 0.04;

/** The demo goes only into a database without landings: it never mixes with real data. */
export async function needsDemo(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM landings) AS empty');
  return rows[0]!.empty;
}

/** The demo accounts present in the database, to print beside the URL at start-up. */
export async function demoAccountsPresent(db: Queryable) {
  const { rows } = await db.query<{ email: string }>('SELECT lower(email) AS email FROM users WHERE lower(email) = ANY($1)', [
    DEMO_ACCOUNTS.map((a) => a.email),
  ]);
  const present = new Set(rows.map((r) => r.email));
  return DEMO_ACCOUNTS.filter((a) => present.has(a.email));
}

/**
 * Fills an empty database with the demo of issue 2, in one transaction: accounts, landings,
 * customers and rules, `leads` leads (DEMO_LEADS) over the 12 months before `now` (duplicates, conversions,
 * deliveries by the rules with their daily reports, exports of the extracted ones) and a few
 * map notes. The same seed gives the same data relative to `now`; only export tokens (download
 * capabilities) and password salts are truly random.
 */
export async function seedDemo(db: Db, { now = new Date(), leads: count = DEMO_LEADS } = {}): Promise<{ leads: number }> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hashPassword(a.password)));
  return db.tx(async (q) => {
    const r = new Random(DEMO_SEED);
    const accounts = await insertAccounts(q, hashes);
    const landings = await insertLandings(q);
    const rules = await insertCustomersAndRules(q, landings);

    const leads = generateLeads(r, landings, now, count);
    const live = await deliverByRules(q, rules, leads, now);
    const exports = await exportExtracted(q, r, leads, landings, accounts, now);

    leads.all.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    const ids = await reserveIds(q, 'leads', leads.all.length);
    leads.all.forEach((lead, i) => (lead.id = ids[i]!));

    await bulkInsert(q, 'exports', EXPORT_COLUMNS, exports);
    await bulkInsert(q, 'reports', REPORT_COLUMNS, live.reports);
    await insertSeedLeads(q, leads.all);
    await insertRoutings(q, live, now);
    // The deliveries and exports above, as their sales (lead_sales): the migration's own statement.
    await q.query('SELECT record_past_sales()');
    await seedMoney(q, now);
    await q.query('UPDATE leads SET convert = u.copy FROM unnest($1::bigint[], $2::bigint[]) AS u(id, copy) WHERE leads.id = u.id', [
      leads.conversions.map(([from]) => from.id),
      leads.conversions.map(([, copy]) => copy.id),
    ]);
    await insertNotes(q, accounts.admin);
    await seedProduction(q, accounts.admin);
    await seedAdminDemo(q);
    await seedViews(q, accounts);
    return { leads: leads.all.length };
  });
}

async function insertAccounts(q: Queryable, hashes: string[]) {
  for (const [i, a] of DEMO_ACCOUNTS.entries()) {
    await q.query(`INSERT INTO users (email, name, password_hash, admin) VALUES ($1, $2, $3, $4) ON CONFLICT (lower(email)) DO NOTHING`, [
      a.email,
      a.name,
      hashes[i],
      a.admin,
    ]);
  }
  const { rows } = await q.query<{ id: number; email: string }>('SELECT id, lower(email) AS email FROM users WHERE lower(email) = ANY($1)', [
    DEMO_ACCOUNTS.map((a) => a.email),
  ]);
  const idOf = (email: string) => rows.find((row) => row.email === email)!.id;
  return { admin: idOf(DEMO_ACCOUNTS[0].email), staff: idOf(DEMO_ACCOUNTS[1].email) };
}

async function insertLandings(q: Queryable): Promise<Array<SeedLanding & { category: string; weight: number }>> {
  const out = [];
  for (const l of DEMO_LANDINGS) {
    const columns = [...COMMON_COLUMNS, ...l.extra];
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO landings (key, name, kind, category, zone_climatique, columns) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [l.key, l.name, l.kind, l.category, l.zone_climatique, JSON.stringify(columns)],
    );
    out.push({ id: rows[0]!.id, key: l.key, kind: l.kind, category: l.category, weight: l.weight, columns });
  }
  return out;
}

/** Leads as they arrived, plus the duplicates and the copies made by conversions. */
function generateLeads(r: Random, landings: Array<SeedLanding & { category: string; weight: number }>, now: Date, count: number) {
  const duplicates = Math.round(count * DUPLICATE_SHARE);
  const codes = new PostalCodePicker();
  const byWeight = landings.map((l) => [l, l.weight] as const);
  const all: SeedLead[] = [];
  const conversions: Array<[SeedLead, SeedLead]> = [];
  while (all.length + duplicates < count) {
    const landing = r.weighted(byWeight);
    const at = arrivalTime(r, now);
    const lead = makeLead(r, codes, landing, at, statusFor(r, at, now), now);
    all.push(lead);
    if (lead.entry_status !== 'converted') continue;
    // Converted to another landing of the same trade: the copy keeps the fields both forms share.
    const target = r.pick(landings.filter((l) => l.category === landing.category && l.id !== landing.id));
    const data = Object.fromEntries(target.columns.filter((c) => c.key in lead.data).map((c) => [c.key, lead.data[c.key]!]));
    const copy: SeedLead = {
      ...lead,
      landing_id: target.id,
      created_at: lead.updated_at,
      entry_status: statusFor(r, lead.updated_at, now, false),
      visitor: r.hex(16),
      data,
    };
    all.push(copy);
    conversions.push([lead, copy]);
  }
  // The same person sending the same form again within 30 days.
  const originals = [...all];
  while (all.length < count) {
    const orig = r.pick(originals);
    const at = new Date(orig.created_at.getTime() + r.int(2, 25 * 24) * 3_600_000);
    if (at > now || orig.entry_status === 'converted') continue;
    all.push({ ...orig, created_at: at, updated_at: at, entry_status: 'duplicate', visitor: r.hex(16), data: { ...orig.data } });
  }
  return { all, conversions };
}

const EXPORT_COLUMNS = {
  id: 'integer',
  token: 'text',
  landing_ids: 'integer[]',
  user_id: 'integer',
  filename: 'text',
  book_type: 'text',
  count: 'integer',
  for_customer: 'text',
  created_at: 'timestamptz',
};

/** Extracted leads not delivered by a rule were sold in monthly files, one per landing. */
async function exportExtracted(
  q: Queryable,
  r: Random,
  leads: { all: SeedLead[] },
  landings: SeedLanding[],
  accounts: { admin: number; staff: number },
  now: Date,
): Promise<unknown[][]> {
  const groups = new Map<string, SeedLead[]>();
  for (const lead of leads.all) {
    if (lead.entry_status !== 'extracted' || lead.rapport_id) continue;
    const key = `${lead.landing_id}|${lead.updated_at.toISOString().slice(0, 7)}`;
    const list = groups.get(key) ?? groups.set(key, []).get(key)!;
    list.push(lead);
  }
  const ids = await reserveIds(q, 'exports', groups.size);
  const buyers = [...DEMO_CUSTOMERS.map((c) => c.name), ...OTHER_BUYERS];
  return [...groups.values()].map((group, i) => {
    const landing = landings.find((l) => l.id === group[0]!.landing_id)!;
    const last = Math.max(...group.map((l) => l.updated_at.getTime()));
    const created = new Date(Math.min(now.getTime(), last + 10 * 60_000));
    const buyer = r.pick(buyers);
    const bookType = r.weighted([
      ['xlsx', 60],
      ['csv', 30],
      ['pdf', 5],
      ['txt', 5],
    ] as const);
    for (const lead of group) {
      lead.export_id = ids[i]!;
      lead.sold_to = buyer;
      lead.updated_at = created;
    }
    const filename = `${landing.key}-${created.toISOString().slice(0, 10)}.${bookType}`;
    return [
      ids[i],
      randomBytes(32).toString('base64url'),
      [landing.id],
      r.chance(0.6) ? accounts.staff : accounts.admin,
      filename,
      bookType,
      group.length,
      buyer,
      created,
    ];
  });
}

async function insertNotes(q: Queryable, adminId: number) {
  const notes: Array<[string, string, string]> = [
    ['pac', '30', 'Zone prioritaire : forte demande, rappeler sous 24 h.'],
    ['pac', '34', 'Bon taux de transformation, deux installateurs partenaires.'],
    ['pac', '13', "Concurrence forte sur Marseille, viser l'arrière-pays."],
    ['pv', '84', 'Très bon ensoleillement, leads solaires bien revendus.'],
    ['other', '33', 'Combles : demande saisonnière, pic en octobre.'],
  ];
  for (const [category, departement, text] of notes) {
    await q.query('INSERT INTO department_notes (category, departement, text, updated_by) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
      category,
      departement,
      text,
      adminId,
    ]);
  }
}
