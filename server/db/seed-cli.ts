/**
 * `npm run seed [-- --leads N]`: seeds the demo into an empty database, then adds N more leads
 * spread over the existing landings (for benchmarks). Uses the server's configuration (DATA_DIR
 * or DATABASE_URL); with PGlite, stop the server first: its data folder has one user at a time.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { setPasswordCost } from '../services/auth/passwords';
import { openDb, type Db, type Queryable } from './connection';
import { migrate } from './migrate';
import { DEMO_SEED, needsDemo, seedDemo } from './seed';
import { exportStorage, writeMissingExportFiles } from '../services/exports/extract';
import { syncSearchIndexes } from '../services/leads/search-indexes';
import { OTHER_BUYERS } from './seed-data';
import { arrivalTime, copySeedLeads, makeLead, PostalCodePicker, Random, statusFor, type SeedLead, type SeedLanding } from './seed-leads';

const BATCH = 50_000;
const REBUILD_FROM = 50_000;

const { values } = parseArgs({ options: { leads: { type: 'string', default: '0' } } });
const count = Number(values.leads?.replace(/[_\s]/g, ''));
if (!Number.isSafeInteger(count) || count < 0) {
  console.error('Usage : npm run seed -- --leads 1000000');
  process.exit(2);
}

const config = loadConfig();
setPasswordCost(config.PASSWORD_HASH_COST);
const db = await openDb({ databaseUrl: config.DATABASE_URL, pgliteDir: config.pgliteDir });
try {
  await migrate(db);
  if (await needsDemo(db)) {
    const started = Date.now();
    const { leads } = await seedDemo(db);
    console.log(`Démo créée : ${leads.toLocaleString('fr-FR')} leads en ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (count > 0) await grow(db, count);
  // The server builds them at its start too, where a bench would time that build.
  await syncSearchIndexes(db);
  await writeMissingExportFiles(db, exportStorage(config));
} finally {
  await db.close();
}

/** Adds `count` leads in batches; extracted ones go to one export per landing for this run. */
async function grow(db: Db, count: number) {
  const { rows: landings } = await db.query<SeedLanding>('SELECT id, key, kind, columns FROM landings ORDER BY id');
  const { rows } = await db.query<{ max: number | null }>('SELECT max(id) AS max FROM leads');
  const r = new Random(DEMO_SEED + (rows[0]!.max ?? 0));
  const codes = new PostalCodePicker();
  const now = new Date();
  const buyer = r.pick(OTHER_BUYERS);
  const exportOf = new Map<number, number>();
  for (const l of landings) {
    const res = await db.query<{ id: number }>(
      `INSERT INTO exports (token, landing_ids, filename, book_type, for_customer, big_export)
       VALUES ($1, $2, $3, 'csv', $4, true) RETURNING id`,
      [randomBytes(32).toString('base64url'), [l.id], `${l.key}-volume-${now.toISOString().slice(0, 10)}.csv`, buyer],
    );
    exportOf.set(l.id, res.rows[0]!.id);
  }

  // Leads arrive in time order, so ids follow created_at as in a live database: a page, a
  // status change or an export of recent leads then reads neighbouring pages, not the whole table.
  const arrivals = Float64Array.from({ length: count }, () => arrivalTime(r, now).getTime()).sort();

  const started = Date.now();
  await db.tx(async (q) => {
    // Building the secondary indexes once at the end is several times faster than keeping them
    // up to date row by row; the transaction puts them back even if the run fails.
    const indexes = count >= REBUILD_FROM ? await secondaryIndexes(q) : [];
    for (const index of indexes) await q.exec(`DROP INDEX "${index.name}"`);
    // One COPY per batch; on PostgreSQL the next batch is drawn while the server writes this one.
    let writing: Promise<unknown> = Promise.resolve();
    for (let done = 0; done < count;) {
      const batch: SeedLead[] = [];
      for (; batch.length < Math.min(BATCH, count - done);) {
        const landing = r.pick(landings);
        const at = new Date(arrivals[done + batch.length]!);
        const lead = makeLead(r, codes, landing, at, statusFor(r, at, now, false), now);
        if (lead.entry_status === 'extracted') {
          lead.export_id = exportOf.get(landing.id)!;
          lead.sold_to = buyer;
        }
        batch.push(lead);
      }
      await writing;
      writing = copySeedLeads(q, batch);
      done += batch.length;
      const rate = Math.round(done / ((Date.now() - started) / 1000));
      process.stdout.write(`\r${done.toLocaleString('fr-FR')} / ${count.toLocaleString('fr-FR')} leads (${rate.toLocaleString('fr-FR')}/s)   `);
    }
    await writing;
    if (indexes.length) process.stdout.write('\nReconstruction des index…');
    for (const index of indexes) await q.exec(index.def);
    await q.query('UPDATE exports SET count = (SELECT count(*) FROM leads WHERE leads.export_id = exports.id) WHERE id = ANY($1)', [[...exportOf.values()]]);
  });
  // PGlite has no autovacuum: without the visibility map and hint bits, the first reads would write.
  await db.exec('VACUUM ANALYZE leads, lead_persons');
  // Vacuumed, its indexes new: nothing left for the maintenance's 'vacuum after N written rows'.
  await db.query('UPDATE lead_writes SET written = 0, vacuumed_at = now()');
  const seconds = (Date.now() - started) / 1000;
  console.log(`\n${count.toLocaleString('fr-FR')} leads ajoutés en ${seconds.toFixed(1)} s (${Math.round(count / seconds).toLocaleString('fr-FR')}/s)`);
}

/** The indexes of `leads` and of its persons other than those behind constraints (their primary keys). */
async function secondaryIndexes(q: Queryable) {
  const { rows } = await q.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE schemaname = current_schema() AND tablename IN ('leads', 'lead_persons')
        AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid IN ('leads'::regclass, 'lead_persons'::regclass))`,
  );
  return rows;
}
