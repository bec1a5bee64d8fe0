// What the delivery benches share: the world of rules they route against (100 customers and 1,000
// active rules over 20 landings, each rule with filters, caps on all four windows wide enough to
// stay open, a priority, a weight or none, one in three shared, the landings taking 2 buyers), the
// server as `npm start` runs it (the esbuild bundle, child processes on one database), and intakes
// posted at a steady rate through the public intake, each answer's time compared with the moment
// the engine decided (lead_routings.decided_at, read back through the routing explanation).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { boot } from '../../server/boot';
import { loadConfig } from '../../server/config';
import type { Queryable } from '../../server/db/connection';
import { postalCodesByDepartement } from '../../server/services/geo';
import { weekdays } from '../../src/api/rules/contract';

export const RULES = 1000;
const LANDINGS = 20;
const CUSTOMERS = 100;
const root = resolve(import.meta.dirname, '../..');
const admin = { email: 'bench@bench.local', password: 'bench-password-1' };

const columns = [
  { key: 'nom', label: 'Nom', type: 'text', required: true },
  { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
  { key: 'code_postal', label: 'Code postal', type: 'postal_code', required: true },
  { key: 'chauffage', label: 'Chauffage', type: 'select', required: false, options: ['Gaz', 'Fioul', 'Électrique'] },
  { key: 'surface', label: 'Surface', type: 'number', required: false },
];
export const heatings = ['Gaz', 'Fioul', 'Électrique'];
/** Filters as rules carry them: most leads pass them (a lead failing one is judged, then passed over). */
const filterChoices = [
  [{ column: 'chauffage', op: 'in', value: ['Gaz', 'Fioul', 'Électrique'] }],
  [{ column: 'surface', op: 'gte', value: 20 }],
  [
    { column: 'chauffage', op: 'neq', value: 'Bois' },
    { column: 'source', op: 'in', value: ['google', 'facebook', 'autre'] },
  ],
  [{ column: 'surface', op: 'between', value: [30, 400] }],
];

/** A new database on the PostgreSQL server of `url`. */
export async function freshDatabase(url: string): Promise<string> {
  const name = `lc_bench_delivery_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** A seeded pseudo-random stream: the same world and leads every run. */
export function randomStream(seed = 7) {
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return { rand, pick: <T>(list: T[]) => list[Math.floor(rand() * list.length)]! };
}

export interface World {
  landings: Array<{ id: number; key: string }>;
  customers: number[];
  departements: Array<[string, unknown]>;
  codes: string[];
}

/** The landings and customers of the world (no rules yet). */
export async function seedWorld(db: Queryable): Promise<World> {
  const departements = [...postalCodesByDepartement()].filter(([d]) => d.length <= 3);
  const codes = departements.flatMap(([, list]) => list.map((pc) => pc.code));
  const landings: World['landings'] = [];
  for (let i = 0; i < LANDINGS; i++) {
    const key = `bench-live-${i}`;
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO landings (key, name, kind, category, columns, max_buyers) VALUES ($1, $2, 'standard', 'pac', $3, 2) RETURNING id`,
      [key, `Bench ${i}`, JSON.stringify(columns)],
    );
    landings.push({ id: rows[0].id, key });
  }
  const customers: number[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const { rows } = await db.query<{ id: number }>('INSERT INTO customers (name, email) VALUES ($1, $2) RETURNING id', [
      `Client ${i}`,
      `bench-client-${i}@bench.local`,
    ]);
    customers.push(rows[0].id);
  }
  return { landings, customers, departements, codes };
}

/**
 * Rules as the business writes them: a landing or two, three departments (one in ten: everywhere),
 * all week, all day; `everywhere`: every landing, everywhere.
 */
export async function addRules(db: Queryable, world: World, n: number, pick: ReturnType<typeof randomStream>, everywhere = false): Promise<number[]> {
  const { rand } = pick;
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const zip = everywhere || rand() < 0.1 ? [] : [pick.pick(world.departements)[0], pick.pick(world.departements)[0], pick.pick(world.departements)[0]];
    const ls = everywhere ? world.landings.map((l) => l.id) : [pick.pick(world.landings).id, ...(rand() < 0.3 ? [pick.pick(world.landings).id] : [])];
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO rules (name, customer_id, landing_ids, zip, leads_number, cap_hour, cap_week, cap_month, priority, weight, filters, exclusive,
                          ${weekdays.join(', ')})
       VALUES ($1, $2, $3::int[], $4::text[], 10000, 100000, 1000000, 1000000, $5, $6, $7::jsonb, $8, ${weekdays.map(() => 'true').join(', ')}) RETURNING id`,
      [
        `Règle ${i}`,
        world.customers[i % world.customers.length],
        [...new Set(ls)],
        [...new Set(zip)],
        1 + Math.floor(rand() * 9),
        rand() < 0.5 ? null : 1 + Math.floor(rand() * 100),
        JSON.stringify(pick.pick(filterChoices)),
        rand() >= 1 / 3,
      ],
    );
    ids.push(rows[0].id);
  }
  return ids;
}

/** A fresh database with the world and its 1,000 rules, seeded in this process. */
export async function prepareWorld(databaseUrl: string | undefined): Promise<{ dataDir: string; world: World }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ramp-'));
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'error', TRUST_PROXY: '1' },
    { DATABASE_URL: databaseUrl, pgliteDir: databaseUrl ? undefined : join(dataDir, 'pglite'), seedDemo: false },
  );
  const server = await boot(config, { logger: false });
  try {
    const world = await seedWorld(server.ctx.db);
    await addRules(server.ctx.db, world, RULES, randomStream());
    await server.ctx.db.exec('ANALYZE rules; ANALYZE rule_targets');
    return { dataDir, world };
  } finally {
    await server.close();
  }
}

export function buildServer() {
  if (spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('server build failed');
}

/** Starts the built server on the bench's database: its base URL and how to stop it. */
export async function startServer(env: { dataDir: string; databaseUrl?: string }): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  // The bench's own DATABASE_URL names the PostgreSQL server, not this run's database (PGlite without one).
  const { DATABASE_URL: _server, ...inherited } = process.env;
  const proc: ChildProcess = spawn(process.execPath, ['dist-server/main.mjs'], {
    cwd: root,
    env: {
      ...inherited,
      DATA_DIR: env.dataDir,
      ...(env.databaseUrl ? { DATABASE_URL: env.databaseUrl } : {}),
      LOG_LEVEL: 'error',
      SEED_DEMO: '0',
      TRUST_PROXY: '1',
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((ok, fail) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /(http:\/\/[\w.:[\]-]+)/.exec(out);
      if (m) ok(m[1]);
    });
    proc.on('exit', (code) => fail(new Error(`server exited (${code})`)));
  });
  return {
    base,
    pid: proc.pid!,
    stop: async () => {
      proc.kill('SIGTERM');
      await new Promise((done) => proc.once('exit', done));
    },
  };
}

/** The `n`th bench intake, from an address of its own (the intake's rate limit is per address). */
export function postIntake(base: string, key: string, n: number, world: World, stream: ReturnType<typeof randomStream>): Promise<Response> {
  return fetch(`${base}/api/intake/${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
    body: JSON.stringify({
      nom: `Bench ${n}`,
      telephone: `06${String(10_000_000 + n).padStart(8, '0')}`,
      code_postal: stream.pick(world.codes),
      chauffage: stream.pick(heatings),
      surface: 40 + (n % 200),
    }),
  });
}

/** Resolves once the engine has decided the lead (its routing explanation has a decision), or after two minutes. */
export async function decided(base: string, landingId: number, leadId: number): Promise<void> {
  const login = await fetch(`${base}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
  const token = ((await login.json()) as { token: string }).token;
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    const res = await fetch(`${base}/api/landings/data/${landingId}/routing/${leadId}`, { headers: { authorization: `Bearer ${token}` } });
    if (((await res.json()) as { data: { decided_at: string | null } }).data.decided_at) return;
  }
}

export interface LoadResult {
  answered: number;
  failures: number;
  decided: number;
  delivered: number;
  /** Seconds it took to post them all. */
  sent: number;
  answerTimes: number[];
  /** Answer → the engine's decision, per decided lead (ms; a decision before the answer counts as 0). */
  latencies: number[];
}

/**
 * `rate` intakes a second for `seconds` through the public intake, spread over the servers at
 * `bases` in turn; then every lead's decision time read back (for up to two minutes).
 */
export async function intakeLoad(
  bases: string[],
  world: World,
  rate: number,
  seconds: number,
  stream: ReturnType<typeof randomStream>,
  first = 0,
): Promise<LoadResult> {
  const answered = new Map<number, { at: number; landing: number }>();
  const answerTimes: number[] = [];
  let failures = 0;
  const total = seconds * rate;
  const started = Date.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    const landing = stream.pick(world.landings);
    const n = first + i;
    const sentAt = Date.now();
    inflight.push(
      postIntake(bases[i % bases.length]!, landing.key, n, world, stream).then(
        async (res) => {
          const at = Date.now();
          answerTimes.push(at - sentAt);
          if (res.status !== 201) {
            // The first refusal says why (a rate limit, a full pool…).
            if (failures++ === 0) console.log(`  first failed intake: ${res.status} ${(await res.text()).slice(0, 200)}`);
            return;
          }
          answered.set(((await res.json()) as { data: { id: number } }).data.id, { at, landing: landing.id });
        },
        () => void failures++,
      ),
    );
  }
  await Promise.all(inflight);
  const sent = (Date.now() - started) / 1000;

  const login = await fetch(`${bases[0]}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
  const token = ((await login.json()) as { token: string }).token;
  const decided = new Map<number, { at: number; outcome: string }>();
  const deadline = Date.now() + 120_000;
  while (decided.size < answered.size && Date.now() < deadline) {
    const waiting = [...answered].filter(([id]) => !decided.has(id));
    // Ten reads at a time: a 400-a-second stage leaves 8,000 decisions to read.
    for (let i = 0; i < waiting.length; i += 10)
      await Promise.all(
        waiting.slice(i, i + 10).map(async ([id, a]) => {
          const res = await fetch(`${bases[0]}/api/landings/data/${a.landing}/routing/${id}`, { headers: { authorization: `Bearer ${token}` } });
          const why = ((await res.json()) as { data: { outcome: string; decided_at: string | null } }).data;
          if (why.decided_at) decided.set(id, { at: Date.parse(why.decided_at), outcome: why.outcome });
        }),
      );
  }
  return {
    answered: answered.size,
    failures,
    decided: decided.size,
    delivered: [...decided.values()].filter((d) => d.outcome === 'delivered').length,
    sent,
    answerTimes,
    // The engine often decides before the client has read the answer: that counts as 0.
    latencies: [...decided].map(([id, d]) => Math.max(0, d.at - answered.get(id)!.at)),
  };
}
