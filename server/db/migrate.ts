import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './connection';
import { STARTUP_LOCKS, takeStartupLock } from './startup-locks';

const dir = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Applies the SQL files of `migrations/` in name order, each once and in its own transaction.
 * Instances started together against one database (a deployment of N) take turns through an
 * advisory lock and each checks again under it, so a migration is never applied twice nor fails
 * on another instance's table.
 */
export async function migrate(db: Db): Promise<string[]> {
  await db.tx(async (q) => {
    await takeStartupLock(q, STARTUP_LOCKS.migrations);
    await q.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  });
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name));
  const applied: string[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    if (done.has(name)) continue;
    const sql = readFileSync(dir + name, 'utf8');
    await db.tx(async (q) => {
      await takeStartupLock(q, STARTUP_LOCKS.migrations);
      if ((await q.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name])).rows.length) return;
      await q.exec(sql);
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      applied.push(name);
    });
  }
  return applied;
}
