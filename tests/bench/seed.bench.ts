// Seeding figures: the demo seed (issue 2: under 15 s on PGlite) and the seed CLI's growth rate
// on a fresh embedded database, projected to the 1,000,000 leads the lead benches need.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openPglite } from '../../server/db/connection';
import { migrate } from '../../server/db/migrate';
import { seedDemo } from '../../server/db/seed';
import type { BenchResult } from './run';

const root = resolve(import.meta.dirname, '../..');
const GROWTH = 200_000;

export default async function seedBench(): Promise<BenchResult[]> {
  const db = await openPglite(undefined);
  await migrate(db);
  const started = performance.now();
  await seedDemo(db);
  const demo = (performance.now() - started) / 1000;
  await db.close();

  const dataDir = mkdtempSync(join(tmpdir(), 'lead-console-seed-bench-'));
  try {
    const cli = (leads: number) => {
      const t = performance.now();
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/db/seed-cli.ts', '--leads', String(leads)], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        stdio: 'ignore',
      });
      if (run.status !== 0) throw new Error('seed CLI failed');
      return (performance.now() - t) / 1000;
    };
    cli(0); // seeds the demo into the empty folder
    const startup = cli(0); // opening and closing the database alone
    const grown = cli(GROWTH) - startup;
    return [
      { name: 'demo seed, 20,000 leads, in-memory PGlite', value: demo, unit: 's', budget: 15 },
      { name: `seed CLI on PGlite, ${GROWTH.toLocaleString('en')} leads added (leads/s)`, value: GROWTH / grown, unit: 'count' },
      { name: 'seed CLI on PGlite, 1,000,000 leads (projected)', value: (1_000_000 / GROWTH) * grown, unit: 's', budget: 300 },
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
