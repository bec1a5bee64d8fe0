import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../../server/db/connection';
import { formColumns } from '../api/leads-support';
import type { ServerProcess } from '../support/server-process';

/** A landing with the usual form (nom, téléphone, code postal…), made in SQL. */
export async function seedLanding(db: Queryable, key: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`INSERT INTO landings (key, name, category, columns) VALUES ($1, $1, 'pac', $2) RETURNING id`, [
    key,
    JSON.stringify(formColumns),
  ]);
  return rows[0].id;
}

/** `count` new leads of today on a landing, in one statement. */
export async function seedLeads(db: Queryable, landingId: number, count: number): Promise<void> {
  await db.query(
    `INSERT INTO leads (landing_id, entry_status, phone, departement, data)
     SELECT $1, 'new', '06' || lpad(i::text, 8, '0'), '30', jsonb_build_object('nom', 'Nom ' || i, 'telephone', '06' || lpad(i::text, 8, '0'), 'code_postal', '30000')
       FROM generate_series(1, $2) i`,
    [landingId, count],
  );
}

/** A customer and one rule of the landing per cap, open all week all day. Answers the rule ids. */
export async function seedRules(db: Queryable, landingId: number, caps: number[]): Promise<number[]> {
  const customer = (
    await db.query<{ id: number }>(`INSERT INTO customers (name, email) VALUES ($1, $2) RETURNING id`, [
      `Client ${landingId}`,
      `client-${landingId}@pannes.test`,
    ])
  ).rows[0].id;
  const ids: number[] = [];
  for (const [i, cap] of caps.entries()) {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO rules (name, customer_id, landing_ids, leads_number, monday, tuesday, wednesday, thursday, friday, saturday, sunday)
       VALUES ($1, $2, ARRAY[$3::int], $4, true, true, true, true, true, true, true) RETURNING id`,
      [`Règle ${i + 1}`, customer, landingId, cap],
    );
    ids.push(rows[0].id);
  }
  return ids;
}

export interface Burst {
  /** Lead ids the server answered 201 for: each must exist afterwards. */
  accepted: number[];
  /** Posts that got no answer (the server was killed under them): stored or not, never half. */
  unanswered: number;
  /** Statuses of the other answers. */
  statuses: number[];
}

/**
 * Posts leads number `range.from` to `range.from + range.count - 1` (each its own phone) to a
 * landing's public intake, `concurrency` at a time, each from its own address (X-Forwarded-For:
 * the server trusts it) so that the per-address limit stays out of the way; `onAnswer(n)` hears
 * the number answered so far.
 */
export async function intakeBurst(
  server: ServerProcess,
  key: string,
  range: { from: number; count: number },
  concurrency: number,
  onAnswer: (answered: number) => void = () => undefined,
): Promise<Burst> {
  const burst: Burst = { accepted: [], unanswered: 0, statuses: [] };
  const count = range.from + range.count;
  let next = range.from;
  let answered = 0;
  const one = async (i: number) => {
    try {
      const res = await server.request('POST', `/api/intake/${key}`, {
        body: { nom: `Rafale ${i}`, telephone: `07${String(i).padStart(8, '0')}`, code_postal: '30000', email: `rafale${i}@pannes.test` },
        headers: { 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
      });
      if (res.status === 201) burst.accepted.push(((await res.json()) as { data: { id: number } }).data.id);
      else burst.statuses.push(res.status);
      onAnswer(++answered);
    } catch {
      burst.unanswered++;
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await one(next++);
    }),
  );
  return burst;
}

/** A mail's subject, unfolded, its MIME encoded words (RFC 2047: `=?UTF-8?Q?…?=`) decoded. */
function subjectOf(eml: string): string {
  const header = eml.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(header)?.[1] ?? '';
  const q = (text: string) =>
    Buffer.from(
      text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    );
  return subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_m, encoding: string, text: string) =>
      (encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64') : q(text)).toString('utf8'),
    );
}

/** Lead ids of the mails in an outbox folder (the subject names the lead: 'Nouveau lead … (n° 123)'). */
export function mailedLeads(outbox: string): number[] {
  if (!existsSync(outbox)) return [];
  return readdirSync(outbox).map((f) => Number(/\(n° (\d+)\)/.exec(subjectOf(readFileSync(join(outbox, f), 'utf8')))?.[1]));
}

const parts = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.part')) : []);

/**
 * Whether an export file has started since this was called: a new unfinished file (`*.part`) in
 * the folder holds bytes. Those of writers killed before are not counted.
 */
export function newFileWritten(dir: string): () => boolean {
  const before = new Set(parts(dir));
  return () => parts(dir).some((f) => !before.has(f) && (statSync(join(dir, f), { throwIfNoEntry: false })?.size ?? 0) > 0);
}

/** Total size of the files under a folder (PGlite's relations grow as soon as a write extends them). */
export function folderBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name), { throwIfNoEntry: false })?.size ?? 0;
  }
  return bytes;
}
