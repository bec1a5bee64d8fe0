import type { Queryable } from '../../server/db/connection';
import type { LandingColumn } from '../../src/api/landings/contract';
import { departementFor, zoneFor } from '../../server/services/geo';
import { createUser } from '../../server/services/users';
import type { TestServer } from './harness';

export const formColumns: LandingColumn[] = [
  { key: 'nom', label: 'Nom', type: 'text', required: true },
  { key: 'prenom', label: 'Prénom', type: 'text', required: false },
  { key: 'telephone', label: 'Téléphone', type: 'phone', required: true },
  { key: 'email', label: 'Email', type: 'email', required: false },
  { key: 'code_postal', label: 'Code postal', type: 'postal_code', required: true },
  { key: 'chauffage', label: 'Chauffage', type: 'select', required: false, options: ['Gaz', 'Fioul', 'Électrique'] },
  { key: 'surface', label: 'Surface', type: 'number', required: false },
  { key: 'date_projet', label: 'Date du projet', type: 'date', required: false },
];

let landingSeq = 0;

/** A landing created straight in the database (landings are configuration, not an API resource). */
export async function createLanding(
  db: Queryable,
  opts: { name?: string; kind?: 'standard' | 'facebook'; category?: 'pac' | 'pv' | 'other'; zone?: boolean; columns?: LandingColumn[] } = {},
) {
  landingSeq++;
  const key = `lp-${landingSeq}-${Math.random().toString(36).slice(2, 8)}`;
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO landings (key, name, kind, category, zone_climatique, columns) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [
      key,
      opts.name ?? `Landing ${landingSeq}`,
      opts.kind ?? 'standard',
      opts.category ?? 'pac',
      opts.zone ?? true,
      JSON.stringify(opts.columns ?? formColumns),
    ],
  );
  return { id: rows[0].id, key };
}

export interface LeadSeed {
  nom?: string;
  telephone?: string;
  email?: string;
  code_postal?: string;
  status?: string;
  source?: string;
  created_at?: string;
  extra?: Record<string, unknown>;
}

/** Inserts leads directly (bulk setup); returns their ids in order. */
export async function insertLeads(db: Queryable, landingId: number, leads: LeadSeed[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO leads (landing_id, entry_status, source, created_at, phone, email, departement, zone_climatique, data)
     SELECT $1, t.st, t.src, t.at, t.phone, t.email, t.dep, t.zone, t.data::jsonb
       FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
            WITH ORDINALITY AS t(st, src, at, phone, email, dep, zone, data, n)
      ORDER BY t.n RETURNING id`,
    [
      landingId,
      leads.map((l) => l.status ?? 'new'),
      leads.map((l) => l.source ?? 'google'),
      leads.map((l) => l.created_at ?? new Date().toISOString()),
      leads.map((l) => l.telephone ?? null),
      leads.map((l) => l.email ?? null),
      leads.map((l) => departementFor(l.code_postal)),
      leads.map((l) => zoneFor(departementFor(l.code_postal))),
      leads.map((l) => JSON.stringify({ nom: l.nom ?? 'Dupont', telephone: l.telephone, email: l.email, code_postal: l.code_postal, ...l.extra })),
    ],
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** Signs in a fresh normal (non-admin) user through the real registration path. */
export async function normalUserToken(server: TestServer, email = `staff-${Date.now()}@test.local`): Promise<string> {
  await createUser(server.ctx.db, { name: 'Staff', email, password: 'staff-password-1' });
  return server.login(email, 'staff-password-1');
}

/** A form posted by a landing page (the public intake), from a distinct address whose rate limit it alone spends. */
export const postIntake = (server: TestServer, key: string, body: Record<string, string>, address = '203.0.113.9') =>
  server.request('POST', `/api/intake/${key}`, { body, headers: { origin: 'https://lp.example.com', 'x-forwarded-for': address } });
