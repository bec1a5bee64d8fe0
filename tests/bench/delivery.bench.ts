// Live delivery bench (docs/decisions.md §7, issues 17 and 25): 100 customers and 1,000 active rules over 20
// landings, each rule with filters, caps on all four windows (hour, day, week, month: counted and
// checked, wide enough to stay open), a priority, a weight or none, one in three shared (the
// landings take 2 buyers), the customers deduping by person; 50 intakes a second through the public intake for BENCH_DELIVERY_SECONDS (default 20),
// each answer's time compared with the moment the engine decided (lead_routings.decided_at): the
// p95 must stay under 1 s. Then the cost of choosing a rule for one lead, measured on the same
// server with 10 and with 1,000 rules (the candidate index makes it follow the rules that could
// take the lead, not how many exist), measured in this process. Then the intakes go to the real
// server as `npm start` runs it (the esbuild bundle, a child process) on the same fresh database
// (PGlite in a temporary folder, or a new database on DATABASE_URL); the decision times come back
// through the routing explanation (GET /api/landings/data/:id/routing/:leadId).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { boot } from '../../server/boot';
import { loadConfig } from '../../server/config';
import { routeLeads } from '../../server/services/delivery/engine';
import { postalCodesByDepartement } from '../../server/services/geo';
import { weekdays } from '../../src/api/rules/contract';
import type { BenchResult } from './run';

const SECONDS = Number(process.env.BENCH_DELIVERY_SECONDS ?? 20);
const RATE = 50;
const LANDINGS = 20;
const CUSTOMERS = 100;
const RULES = 1000;
const CHOICE_SAMPLES = 200;
const root = resolve(import.meta.dirname, '../..');
const admin = { email: 'bench@bench.local', password: 'bench-password-1' };

const columns = [
  { key: 'nom', label: 'Nom', type: 'text', required: true },
  { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
  { key: 'code_postal', label: 'Code postal', type: 'postal_code', required: true },
  { key: 'chauffage', label: 'Chauffage', type: 'select', required: false, options: ['Gaz', 'Fioul', 'Électrique'] },
  { key: 'surface', label: 'Surface', type: 'number', required: false },
];
const heatings = ['Gaz', 'Fioul', 'Électrique'];
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

async function freshDatabase(url: string): Promise<string> {
  const name = `lc_bench_delivery_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

export default async function deliveryBench(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-delivery-'));
  const databaseUrl = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : undefined;
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'error', TRUST_PROXY: '1' },
    { DATABASE_URL: databaseUrl, pgliteDir: databaseUrl ? undefined : join(dataDir, 'pglite'), seedDemo: false },
  );
  const server = await boot(config, { logger: false });
  const { db } = server.ctx;
  const landings: Array<{ id: number; key: string }> = [];
  let codes: string[] = [];
  let with10: number[] = [];
  let with1000: number[] = [];
  let seed = 7;
  /** Each choice lead a new person: no customer passes one over as already bought. */
  let person = 0;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  try {
    const departements = [...postalCodesByDepartement()].filter(([d]) => d.length <= 3);
    codes = departements.flatMap(([, list]) => list.map((pc) => pc.code));

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
    // Rules as the business writes them: a landing or two, three departments (one in ten: everywhere), all week, all day.
    const addRules = async (n: number, everywhere = false) => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        const zip = everywhere || rand() < 0.1 ? [] : [pick(departements)[0], pick(departements)[0], pick(departements)[0]];
        const ls = everywhere ? landings.map((l) => l.id) : [pick(landings).id, ...(rand() < 0.3 ? [pick(landings).id] : [])];
        const { rows } = await db.query<{ id: number }>(
          `INSERT INTO rules (name, customer_id, landing_ids, zip, leads_number, cap_hour, cap_week, cap_month, priority, weight, filters, exclusive,
                              ${weekdays.join(', ')})
           VALUES ($1, $2, $3::int[], $4::text[], 10000, 100000, 1000000, 1000000, $5, $6, $7::jsonb, $8, ${weekdays.map(() => 'true').join(', ')}) RETURNING id`,
          [
            `Règle ${i}`,
            customers[i % CUSTOMERS],
            [...new Set(ls)],
            [...new Set(zip)],
            1 + Math.floor(rand() * 9),
            rand() < 0.5 ? null : 1 + Math.floor(rand() * 100),
            JSON.stringify(pick(filterChoices)),
            rand() >= 1 / 3,
          ],
        );
        ids.push(rows[0].id);
      }
      return ids;
    };

    // 1. Rule choice with 10 rules, then with 1,000: leads inserted as of yesterday (no sweep), routed
    // one by one. The 10 rules take every landing everywhere, so that each lead has candidates in
    // both cases (about 10 with 10 rules, about 8 with 1,000) and is delivered: the same work.
    const choice = async () => {
      const times: number[] = [];
      for (let i = 0; i < CHOICE_SAMPLES; i++) {
        const landing = pick(landings);
        const code = pick(codes);
        const { rows } = await db.query<{ id: number }>(
          `INSERT INTO leads (landing_id, created_at, departement, data) VALUES ($1, now() - interval '2 days', $2, $3) RETURNING id`,
          [
            landing.id,
            code.startsWith('97') ? code.slice(0, 3) : code.startsWith('20') ? (Number(code) < 20200 ? '2A' : '2B') : code.slice(0, 2),
            JSON.stringify({
              nom: 'Bench',
              telephone: `07${String(10_000_000 + ++person).padStart(8, '0')}`,
              code_postal: code,
              chauffage: pick(heatings),
              surface: 50 + i,
            }),
          ],
        );
        const started = performance.now();
        await routeLeads(server.ctx, { leads: [rows[0].id], offeredAt: new Date() });
        times.push(performance.now() - started);
      }
      return times;
    };
    const ten = await addRules(10, true);
    await choice(); // warm-up
    with10 = await choice();
    await db.query('DELETE FROM rules WHERE id = ANY($1::int[])', [ten]);
    await addRules(RULES);
    await db.exec('ANALYZE rules; ANALYZE rule_targets; ANALYZE reports; ANALYZE rule_windows; ANALYZE lead_sales');
    with1000 = await choice();
  } finally {
    await server.close();
  }

  // 2. 50 intakes a second to the server as it runs in production; latency from each answer to the engine's decision.
  if (spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) throw new Error('server build failed');
  const proc = spawn(process.execPath, ['dist-server/main.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
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
  try {
    const answered = new Map<number, { at: number; landing: number }>();
    const answerTimes: number[] = [];
    let failures = 0;
    const total = SECONDS * RATE;
    const started = Date.now();
    const inflight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const landing = pick(landings);
      const sentAt = Date.now();
      inflight.push(
        fetch(`${base}/api/intake/${landing.key}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
          body: JSON.stringify({
            nom: `Bench ${i}`,
            telephone: `06${String(10_000_000 + i).padStart(8, '0')}`,
            code_postal: pick(codes),
            chauffage: pick(heatings),
            surface: 40 + (i % 200),
          }),
        }).then(
          async (res) => {
            const at = Date.now();
            answerTimes.push(at - sentAt);
            if (res.status !== 201) return void failures++;
            answered.set(((await res.json()) as { data: { id: number } }).data.id, { at, landing: landing.id });
          },
          () => void failures++,
        ),
      );
    }
    await Promise.all(inflight);
    const sent = Date.now() - started;

    const login = await fetch(`${base}/api/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
    const token = ((await login.json()) as { token: string }).token;
    const decided = new Map<number, { at: number; outcome: string }>();
    const deadline = Date.now() + 120_000;
    while (decided.size < answered.size && Date.now() < deadline) {
      for (const [id, a] of answered) {
        if (decided.has(id)) continue;
        const res = await fetch(`${base}/api/landings/data/${a.landing}/routing/${id}`, { headers: { authorization: `Bearer ${token}` } });
        const why = ((await res.json()) as { data: { outcome: string; decided_at: string | null } }).data;
        if (why.decided_at) decided.set(id, { at: Date.parse(why.decided_at), outcome: why.outcome });
      }
    }
    // The engine often decides before the client has read the answer: that counts as 0.
    const latencies = [...decided].map(([id, d]) => Math.max(0, d.at - answered.get(id)!.at));
    const delivered = [...decided.values()].filter((d) => d.outcome === 'delivered').length;
    console.log(
      `  ${answered.size} intakes answered in ${(sent / 1000).toFixed(1)} s (${failures} failed), ${decided.size} decided, ${delivered} delivered; ` +
        `choice p50 ${percentile(with10, 50).toFixed(1)} ms (10 rules) vs ${percentile(with1000, 50).toFixed(1)} ms (1,000 rules)`,
    );

    return [
      {
        name: `intake answer → assignment, ${RATE} intakes/s for ${SECONDS} s, ${RULES} rules (p95)`,
        value: percentile(latencies, 95),
        unit: 'ms',
        budget: 1000,
      },
      { name: 'intake answer → assignment (p50)', value: percentile(latencies, 50), unit: 'ms' },
      { name: 'intake answer time under that load (p95)', value: percentile(answerTimes, 95), unit: 'ms' },
      { name: 'intakes failed or refused', value: failures, unit: 'count', budget: 1 },
      { name: 'leads left undecided after 2 minutes', value: answered.size - decided.size, unit: 'count', budget: 1 },
      {
        name: 'rule choice for one lead, 1,000 rules (p50)',
        value: percentile(with1000, 50),
        unit: 'ms',
        peer: { name: '10 rules', value: percentile(with10, 50) },
      },
      {
        name: 'rule choice for one lead, 1,000 rules (p95)',
        value: percentile(with1000, 95),
        unit: 'ms',
        peer: { name: '10 rules', value: percentile(with10, 95) },
      },
      { name: 'rule choice cost, 1,000 rules / 10 rules (p50)', value: percentile(with1000, 50) / percentile(with10, 50), unit: 'ratio', budget: 1.5 },
    ];
  } finally {
    proc.kill('SIGTERM');
    await new Promise((resolve) => proc.once('exit', resolve));
  }
}
