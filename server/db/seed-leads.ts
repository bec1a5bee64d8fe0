import type { LandingColumn } from '../../src/api/landings/contract';
import type { EntryStatus, LeadSource } from '../../src/api/leads/contract';
import { departementFor, postalCodesByDepartement, zoneFor } from '../services/geo';
import type { Queryable } from './connection';
import { bulkInsert, copyRows } from './bulk';
import { DEPARTMENT_BOOST, FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS, PRESALE_SITES, SOURCE_WEIGHTS, UTM_MEDIUM } from './seed-data';

const DAY = 86_400_000;

/** A small seeded generator (mulberry32): the same seed gives the same demo, run after run. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T>(pairs: ReadonlyArray<readonly [T, number]>): T {
    const total = pairs.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [v, w] of pairs) if ((x -= w) < 0) return v;
    return pairs.at(-1)![0];
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(this.next() * 10);
    return s;
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
}

/**
 * Picks real postal codes in proportion to the people they serve, boosted where the business is
 * strongest: the map then looks like production, not like noise. Codes of the overseas
 * collectivities other than the five departments are left out.
 */
export class PostalCodePicker {
  private codes: string[] = [];
  private cumulative: number[] = [];
  constructor() {
    let total = 0;
    for (const [dep, codes] of postalCodesByDepartement()) {
      if (dep.length === 3 && !['971', '972', '973', '974', '976'].includes(dep)) continue;
      const boost = (DEPARTMENT_BOOST[dep] ?? 1) * (dep.length === 3 ? 0.4 : 1);
      for (const pc of codes) {
        total += pc.population * boost;
        this.codes.push(pc.code);
        this.cumulative.push(total);
      }
    }
  }
  pick(r: Random): string {
    const x = r.next() * this.cumulative.at(-1)!;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.codes[lo]!;
  }
}

/** Codes typed wrong on forms: they keep an empty department, as real ones would. */
const UNKNOWN_CODES = ['00000', '99999', '30999', '75999'];

export interface SeedLanding {
  id: number;
  key: string;
  kind: 'standard' | 'facebook';
  columns: LandingColumn[];
}

export interface SeedLead {
  id: number | null;
  landing_id: number;
  created_at: Date;
  updated_at: Date;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  source: LeadSource;
  url_presale: string | null;
  visitor: string;
  entry_status: EntryStatus;
  rapport_id: number | null;
  sold_to: string | null;
  export_id: number | null;
  departement: string;
  zone_climatique: string;
  phone: string;
  email: string;
  data: Record<string, string | number>;
}

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

const COMMENTS = ['Rappeler en fin de journée', 'Préfère être contacté par email', 'Déjà client chez un concurrent', 'Souhaite un devis rapidement'];

function formValue(r: Random, col: LandingColumn): string | number | undefined {
  if (!col.required && r.chance(0.15)) return undefined;
  switch (col.type) {
    case 'select':
      return r.pick(col.options ?? ['']);
    case 'number':
      if (col.key.startsWith('facture')) return r.int(60, 320);
      if (col.key === 'surface_toit') return r.int(15, 80);
      return r.int(45, 220);
    case 'date':
      return `${r.int(1938, 1965)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
    default:
      return col.required ? r.pick(COMMENTS) : r.chance(0.3) ? r.pick(COMMENTS) : undefined;
  }
}

/** The moment a lead arrived: more leads lately (the business grows), mostly in the daytime. */
export function arrivalTime(r: Random, now: Date, days = 365): Date {
  const growing = r.chance(0.65);
  const daysAgo = Math.floor(days * (growing ? 1 - Math.sqrt(r.next()) : r.next()));
  const hour =
    r.weighted([
      [8, 4],
      [10, 6],
      [12, 7],
      [14, 6],
      [17, 7],
      [19, 8],
      [21, 5],
      [23, 1],
      [2, 0.5],
    ] as const) +
    r.next() * 2;
  const day = new Date(now.getTime() - daysAgo * DAY);
  day.setUTCHours(0, 0, 0, 0);
  const at = new Date(day.getTime() + hour * 3_600_000 + r.int(0, 59) * 1000);
  return at > now ? new Date(now.getTime() - r.int(60, 3600) * 1000) : at;
}

/** Status of a lead of this age: new ones are mostly untouched, older ones mostly handled. */
export function statusFor(r: Random, createdAt: Date, now: Date, withConverted = true): EntryStatus {
  const daysAgo = (now.getTime() - createdAt.getTime()) / DAY;
  if (r.chance(0.5 + 0.45 * Math.exp(-daysAgo / 60))) return 'new';
  return r.weighted([
    ['extracted', 45],
    ['archived', 27],
    ['trashed', 18],
    [withConverted ? 'converted' : 'archived', 10],
  ] as const);
}

/** One lead as a landing page would have sent it, its derived columns filled. */
export function makeLead(r: Random, codes: PostalCodePicker, landing: SeedLanding, createdAt: Date, status: EntryStatus, now: Date): SeedLead {
  const prenom = r.pick(FIRST_NAMES);
  const nom = r.pick(LAST_NAMES);
  const phone = `0${r.chance(0.7) ? 6 : 7}${r.digits(8)}`;
  const email = `${slug(prenom)}${r.pick(['.', '', '-', '_'])}${slug(nom)}${r.chance(0.5) ? r.int(1, 99) : ''}@${r.weighted(MAIL_DOMAINS)}`;
  const codePostal = r.chance(0.004) ? r.pick(UNKNOWN_CODES) : codes.pick(r);
  const departement = departementFor(codePostal);

  const source: LeadSource =
    landing.kind === 'facebook'
      ? r.weighted([
          ['facebook', 90],
          ['email', 5],
          ['sms', 5],
        ] as const)
      : r.weighted(SOURCE_WEIGHTS);
  const month = createdAt.toISOString().slice(0, 7);
  const utmSource = source === 'autre' ? r.pick(['bing', 'partenaire', null]) : source;
  const presale = ['taboola', 'outbrain', 'facebook'].includes(source) && r.chance(0.8);

  const data: Record<string, string | number> = {};
  for (const col of landing.columns) {
    const value =
      col.key === 'nom'
        ? nom
        : col.key === 'prenom'
          ? prenom
          : col.key === 'telephone'
            ? phone
            : col.key === 'email'
              ? email
              : col.key === 'code_postal'
                ? codePostal
                : formValue(r, col);
    if (value !== undefined) data[col.key] = value;
  }

  const updatedAt = status === 'new' ? createdAt : new Date(Math.min(now.getTime(), createdAt.getTime() + r.int(1, 240) * 3_600_000));
  return {
    id: null,
    landing_id: landing.id,
    created_at: createdAt,
    updated_at: updatedAt,
    utm_source: utmSource,
    utm_medium: UTM_MEDIUM[source],
    utm_campaign: utmSource ? `${utmSource.slice(0, 3)}_${landing.key}_${month}` : null,
    source,
    url_presale: presale ? `${r.pick(PRESALE_SITES)}/article/${landing.key}-${r.int(1, 6)}` : null,
    visitor: r.hex(16),
    entry_status: status,
    rapport_id: null,
    sold_to: null,
    export_id: null,
    departement,
    zone_climatique: zoneFor(departement),
    phone,
    email,
    data,
  };
}

const LEAD_COLUMNS = {
  id: { type: 'bigint', expr: "coalesce($, nextval(pg_get_serial_sequence('leads', 'id')))" },
  landing_id: 'integer',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  utm_source: 'text',
  utm_medium: 'text',
  utm_campaign: 'text',
  source: 'text',
  url_presale: 'text',
  visitor: 'text',
  entry_status: 'text',
  rapport_id: 'integer',
  sold_to: 'text',
  export_id: 'integer',
  departement: 'text',
  zone_climatique: 'text',
  phone: 'text',
  email: 'text',
  data: 'jsonb',
};

/** Inserts leads in batches; rows without an id take the next of the sequence. */
export function insertSeedLeads(q: Queryable, leads: SeedLead[], batchSize?: number): Promise<void> {
  const keys = Object.keys(LEAD_COLUMNS) as Array<keyof SeedLead>;
  return bulkInsert(
    q,
    'leads',
    LEAD_COLUMNS,
    leads.map((l) => keys.map((k) => l[k])),
    batchSize,
  );
}

/** Writes new leads with one COPY, their ids drawn from the sequence in order: the statement triggers see them as one set. */
export function copySeedLeads(q: Queryable, leads: SeedLead[]): Promise<number> {
  const keys = Object.keys(LEAD_COLUMNS).filter((k) => k !== 'id') as Array<keyof SeedLead>;
  return copyRows(
    q,
    'leads',
    keys,
    leads.map((l) => keys.map((k) => l[k])),
  );
}
