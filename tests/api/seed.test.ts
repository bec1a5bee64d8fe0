import { createHash } from 'node:crypto';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { demoAccountsPresent, needsDemo, seedDemo } from '../../server/db/seed';
import { departementFor, zoneFor } from '../../server/services/geo';
import { migratedPglite, startServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  // Seeded by boot() as SEED_DEMO makes it, export files included (the browser tests boot that way).
  // Its duration (issue 2: under 15 s) is `npm run bench`'s to check (tests/bench/seed.bench.ts),
  // on an idle machine: beside the other lane of CI it measured the load, not the seed.
  server = await startServer({ seedDemo: true });
});
afterAll(() => server.close());

const rows = async <T>(sql: string) => (await server.ctx.db.query<T>(sql)).rows;

describe('demo seed at start-up', () => {
  it('signs in with both demo accounts, admin and normal', async () => {
    for (const [email, password, admin] of [
      ['admin@demo.local', 'demo-admin', true],
      ['staff@demo.local', 'demo-staff', false],
    ] as const) {
      const token = await server.login(email, password);
      const me = (await (await server.request('GET', '/api/me', { token })).json()) as { data: { admin: boolean } };
      expect(me.data.admin, email).toBe(admin);
    }
    expect((await demoAccountsPresent(server.ctx.db)).map((a) => a.email)).toEqual(['admin@demo.local', 'staff@demo.local']);
  });

  it('lists saved views, the staff’s and the shared ones, each with its count of leads', async () => {
    const token = await server.login('staff@demo.local', 'demo-staff');
    const views = ((await (await server.request('GET', '/api/views', { token })).json()) as { data: { name: string; count: number | null }[] }).data;
    expect(views.map((v) => v.name).sort()).toEqual(['Air-Air au fioul', 'Mes archivés du Gard', 'PAC 30 – Maisons']);
    for (const v of views) expect(v.count, v.name).toBeGreaterThan(0);
  });

  it('has standard landings over pac, pv and other, two facebook ones, each with its own form', async () => {
    const landings = await rows<{ key: string; kind: string; category: string; zone_climatique: boolean; columns: Array<{ key: string; type: string }> }>(
      'SELECT key, kind, category, zone_climatique, columns FROM landings ORDER BY id',
    );
    const standard = landings.filter((l) => l.kind === 'standard');
    expect(standard.length).toBeGreaterThanOrEqual(6);
    expect(new Set(standard.map((l) => l.category))).toEqual(new Set(['pac', 'pv', 'other']));
    expect(standard.some((l) => l.zone_climatique)).toBe(true);
    expect(landings.filter((l) => l.kind === 'facebook')).toHaveLength(2);
    for (const l of landings) {
      const types = Object.fromEntries(l.columns.map((c) => [c.key, c.type]));
      expect(types, l.key).toMatchObject({ nom: 'text', prenom: 'text', telephone: 'phone', email: 'email', code_postal: 'postal_code' });
      expect(l.columns.length, l.key).toBeGreaterThanOrEqual(6);
      expect(l.key).toMatch(/^[a-z0-9-]+$/);
    }
  });

  it('has 20,000 leads over the last 12 months, every status and source, new the majority', async () => {
    const [total] = await rows<{ n: number; oldest: number }>(
      `SELECT count(*)::int AS n, extract(epoch FROM now() - min(created_at)) / 86400 AS oldest FROM leads`,
    );
    expect(total!.n).toBe(20_000);
    expect(total!.oldest).toBeLessThanOrEqual(366);
    const statuses = Object.fromEntries(
      (await rows<{ s: string; n: number }>('SELECT entry_status AS s, count(*)::int AS n FROM leads GROUP BY 1')).map((r) => [r.s, r.n]),
    );
    expect(Object.keys(statuses).sort()).toEqual(['converted', 'duplicate', 'extracted', 'archived', 'new', 'trashed'].sort());
    expect(statuses.new).toBeGreaterThan(10_000);
    const sources = await rows<{ source: string }>('SELECT DISTINCT source FROM leads');
    expect(sources).toHaveLength(8);
    const [utm] = await rows<{ missing: number }>(
      `SELECT count(*)::int AS missing FROM leads WHERE source <> 'autre' AND (utm_source IS NULL OR utm_medium IS NULL OR utm_campaign IS NULL)`,
    );
    expect(utm!.missing).toBe(0);
  });

  it('derives department, climate zone, phone and email from the form, over many departments', async () => {
    const sample = await rows<{ data: Record<string, string>; departement: string; zone_climatique: string; phone: string; email: string }>(
      'SELECT data, departement, zone_climatique, phone, email FROM leads WHERE id % 37 = 0',
    );
    for (const lead of sample) {
      expect(lead.departement).toBe(departementFor(lead.data.code_postal));
      expect(lead.zone_climatique).toBe(zoneFor(lead.departement));
      expect(lead.phone).toMatch(/^0[67]\d{8}$/);
      expect(lead.phone).toBe(lead.data.telephone);
      expect(lead.email).toBe(lead.data.email);
    }
    const perDep = await rows<{ departement: string; n: number }>('SELECT departement, count(*)::int AS n FROM leads GROUP BY 1 ORDER BY 2 DESC');
    expect(perDep.length).toBeGreaterThan(90);
    // Weighted, not uniform: the busiest department has many times the median one.
    expect(perDep[0]!.n).toBeGreaterThan(5 * perDep[Math.floor(perDep.length / 2)]!.n);
  });

  it('links duplicates, conversions, exports and rule reports as the screens expect', async () => {
    const [dups] = await rows<{ n: number; orphans: number }>(`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT EXISTS (
        SELECT 1 FROM leads o WHERE o.landing_id = d.landing_id AND o.id <> d.id AND (o.phone = d.phone OR o.email = d.email)
           AND o.created_at < d.created_at AND o.created_at > d.created_at - interval '30 days'))::int AS orphans
      FROM leads d WHERE d.entry_status = 'duplicate'`);
    expect(dups!.n).toBeGreaterThan(0);
    expect(dups!.orphans).toBe(0);

    const [conv] = await rows<{ n: number; bad: number }>(`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE c.id IS NULL OR c.landing_id = l.landing_id)::int AS bad
      FROM leads l LEFT JOIN leads c ON c.id = l.convert WHERE l.entry_status = 'converted'`);
    expect(conv!.n).toBeGreaterThan(0);
    expect(conv!.bad).toBe(0);

    const [extracted] = await rows<{ unlinked: number; unsold: number }>(`
      SELECT count(*) FILTER (WHERE export_id IS NULL AND rapport_id IS NULL)::int AS unlinked,
             count(*) FILTER (WHERE sold_to IS NULL)::int AS unsold
      FROM leads WHERE entry_status = 'extracted'`);
    expect(extracted).toEqual({ unlinked: 0, unsold: 0 });
    const [exp] = await rows<{ n: number; mismatched: number }>(`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE e.count <> (SELECT count(*) FROM leads WHERE export_id = e.id))::int AS mismatched
      FROM exports e`);
    expect(exp!.n).toBeGreaterThan(10);
    expect(exp!.mismatched).toBe(0);

    const customers = await rows<{ name: string; rules: number }>(
      'SELECT c.name, count(r.id)::int AS rules FROM customers c JOIN rules r ON r.customer_id = c.id GROUP BY c.id ORDER BY c.id',
    );
    expect(customers).toHaveLength(3);
    expect(customers.every((c) => c.rules >= 2 && c.rules <= 3)).toBe(true);
    const [reports] = await rows<{ n: number; mismatched: number }>(`
      SELECT count(*)::int AS n, count(*) FILTER (WHERE r.count <> (SELECT count(*) FROM leads WHERE rapport_id = r.id) OR r.count > r.leads_number)::int AS mismatched
      FROM reports r`);
    expect(reports!.n).toBeGreaterThan(30);
    expect(reports!.mismatched).toBe(0);
  });

  it('fills the rules through today, keeping every routing decision, leaving the sweep nothing to offer', async () => {
    // The rules of the day have today's report; in the first hours of a Paris day few leads have
    // arrived yet, so the filling is looked for over yesterday and today.
    const [today] = await rows<{ reports: number; filled: number }>(`
      SELECT count(*) FILTER (WHERE date = (now() AT TIME ZONE 'Europe/Paris')::date)::int AS reports,
             count(*) FILTER (WHERE count > 0)::int AS filled
        FROM reports WHERE date >= (now() AT TIME ZONE 'Europe/Paris')::date - 1`);
    expect(today!.reports).toBeGreaterThan(0);
    expect(today!.filled).toBeGreaterThan(0);
    const [routed] = await rows<{ delivered: number; sold: number; unrouted: number }>(`
      SELECT (SELECT count(*)::int FROM lead_routings WHERE outcome = 'delivered') AS delivered,
             (SELECT count(*)::int FROM leads WHERE rapport_id IS NOT NULL) AS sold,
             (SELECT count(*)::int FROM leads l WHERE l.entry_status = 'new' AND l.landing_id IN (SELECT landing_id FROM rule_targets)
                 AND l.created_at >= date_trunc('day', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris'
                 AND NOT EXISTS (SELECT 1 FROM lead_routings r WHERE r.lead_id = l.id)) AS unrouted`);
    expect(routed).toEqual({ delivered: routed!.sold, sold: routed!.sold, unrouted: 0 });
    const [paused] = await rows<{ n: number }>('SELECT count(*)::int AS n FROM rules WHERE NOT active');
    expect(paused!.n).toBe(1);
  });

  it('logs the mail that handed each delivered lead to its customer, so a report log matches its count', async () => {
    const [log] = await rows<{ reports: number; mismatched: number; misaddressed: number; retried: number; future: number }>(`
      SELECT (SELECT count(*)::int FROM reports WHERE count > 0) AS reports,
             (SELECT count(*)::int FROM reports r WHERE r.count <> (SELECT count(DISTINCT d.lead_id) FROM deliveries d WHERE d.report_id = r.id AND d.status = 'sent')) AS mismatched,
             (SELECT count(*)::int FROM deliveries d JOIN reports r ON r.id = d.report_id JOIN rules ru ON ru.id = r.rule_id JOIN customers c ON c.id = ru.customer_id
               JOIN leads l ON l.id = d.lead_id
               WHERE d.channel <> 'mail' OR d.target <> c.email OR l.rapport_id <> d.report_id OR d.created_at < l.created_at) AS misaddressed,
             (SELECT count(*)::int FROM deliveries WHERE status = 'failed' AND will_retry) AS retried,
             (SELECT count(*)::int FROM deliveries WHERE created_at > now()) AS future`);
    expect(log!.reports).toBeGreaterThan(30);
    expect(log).toMatchObject({ mismatched: 0, misaddressed: 0, future: 0 });
    expect(log!.retried).toBeGreaterThan(0);
  });

  it('gives every export a file that its download link serves', async () => {
    const [csv] = await rows<{ token: string; filename: string; count: number; missing: number }>(
      `SELECT token, filename, count, (SELECT count(*)::int FROM exports WHERE storage_key IS NULL) AS missing
         FROM exports WHERE book_type = 'csv' ORDER BY id LIMIT 1`,
    );
    expect(csv!.missing).toBe(0);
    const res = await server.request('GET', `/api/exports/${csv!.token}/${encodeURIComponent(csv!.filename)}`);
    expect(res.status).toBe(200);
    const parsed = Papa.parse<string[]>((await res.text()).replace(/^\uFEFF/, ''), { skipEmptyLines: true });
    expect(parsed.data.length - 1).toBe(csv!.count);
  });

  it('does not seed a database that already has landings', async () => {
    expect(await needsDemo(server.ctx.db)).toBe(false);
  });
});

describe('seedDemo', () => {
  it('gives the same data for the same day, run after run', async () => {
    const now = new Date('2026-06-15T12:00:00Z');
    const digests: string[] = [];
    for (let run = 0; run < 2; run++) {
      const db = await openPglite(undefined, migratedPglite());
      try {
        await migrate(db);
        await seedDemo(db, { now, leads: 2000 });
        const { rows: leads } = await db.query(
          `SELECT id, landing_id, created_at, entry_status, source, utm_campaign, departement, phone, email, data, convert, export_id, rapport_id, sold_to
             FROM leads ORDER BY id`,
        );
        const { rows: deliveries } = await db.query('SELECT lead_id, report_id, attempt, status, target, created_at FROM deliveries ORDER BY id');
        digests.push(
          createHash('sha256')
            .update(JSON.stringify([leads, deliveries]))
            .digest('hex'),
        );
      } finally {
        await db.close();
      }
    }
    expect(digests[0]).toBe(digests[1]);
  });
});
