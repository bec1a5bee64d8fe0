// 100,000 deterministic lead-like rows, shared by both grids of the bench.
import type { Row } from '../../../src/grid/types';

export const KEYS = [
  'id',
  'created_at',
  'nom',
  'prenom',
  'telephone',
  'email',
  'code_postal',
  'departement',
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'entry_status',
  'sold_to',
];

const NAMES = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau'];
const FIRST = ['Jean', 'Marie', 'Pierre', 'Sophie', 'Luc', 'Claire', 'Paul', 'Julie'];
const SOURCES = ['taboola', 'facebook', 'google', 'sms', 'email', 'outbrain', 'internal', 'autre'];

export function makeRows(n: number): Row[] {
  const rows: Row[] = new Array(n);
  const t0 = Date.UTC(2025, 0, 1);
  for (let i = 0; i < n; i++) {
    const cp = String(1000 + ((i * 7919) % 94000)).padStart(5, '0');
    rows[i] = {
      id: n - i,
      created_at: new Date(t0 + (n - i) * 60_000).toISOString(),
      nom: NAMES[i % NAMES.length],
      prenom: FIRST[i % FIRST.length],
      telephone: `06${String(10_000_000 + i).slice(0, 8)}`,
      email: `lead${i}@example.fr`,
      code_postal: cp,
      departement: cp.slice(0, 2),
      source: SOURCES[i % SOURCES.length],
      utm_source: 'bench',
      utm_medium: 'cpc',
      utm_campaign: `campagne-${i % 40}`,
      entry_status: 'new',
      sold_to: null,
    };
  }
  return rows;
}
