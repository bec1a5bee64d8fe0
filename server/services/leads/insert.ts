import type { EntryStatus, LeadSource } from '../../../src/api/leads/contract';
import { copyRows, reserveIds } from '../../db/bulk';
import type { Queryable } from '../../db/connection';

export interface NewLead {
  data: Record<string, unknown>;
  source: LeadSource;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  url_presale: string | null;
  visitor: string | null;
  departement: string;
  zone_climatique: string;
  phone: string | null;
  email: string | null;
}

/** How long a phone or email keeps flagging later leads of the same landing as duplicates. */
export const DUPLICATE_WINDOW = '30 days';

/** A lead and the landing it goes into. */
export interface LandingLead {
  landingId: number;
  lead: NewLead;
}

/** Inserts leads into one landing: `insertLandingLeads` with every lead on `landingId`. */
export function insertLeads(q: Queryable, landingId: number, leads: NewLead[], flagDuplicates: boolean) {
  return insertLandingLeads(
    q,
    leads.map((lead) => ({ landingId, lead })),
    flagDuplicates,
  );
}

/** A landing and a phone or email, as the duplicate check compares them. */
const personKey = (landingId: number, value: string) => `${landingId}:${value}`;

/**
 * Inserts leads, each into its landing, with a single COPY (ids reserved first, so they follow
 * the input's order), inside the caller's transaction. With `flagDuplicates`, a lead whose phone
 * or email already reached its landing within 30 days (or earlier in the same input) gets the
 * status 'duplicate'. On PostgreSQL a transaction-scoped advisory lock per landing, taken in id
 * order, keeps two concurrent inserts from both missing each other's duplicates; PGlite runs one
 * transaction at a time, so none can come between the check and the insert. Answers the new
 * ids, in input order, and their statuses.
 */
export async function insertLandingLeads(q: Queryable, rows: LandingLead[], flagDuplicates: boolean) {
  if (rows.length === 0) return { ids: [] as number[], statuses: [] as EntryStatus[], duplicates: 0 };
  const landings = [...new Set(rows.map((r) => r.landingId))].sort((a, b) => a - b);
  if (q.parallel) await q.query('SELECT pg_advisory_xact_lock(7340032, l) FROM unnest($1::int[]) AS l', [landings]);

  const statuses: EntryStatus[] = rows.map(() => 'new');
  if (flagDuplicates) {
    const phones = [...new Set(rows.flatMap((r) => (r.lead.phone ? [r.lead.phone] : [])))];
    const emails = [...new Set(rows.flatMap((r) => (r.lead.email ? [r.lead.email] : [])))];
    const { rows: found } = await q.query<{ landing_id: number; phone: string | null; email: string | null }>(
      // One branch per index (leads_phone_idx, leads_email_idx): the person's few leads, whatever the
      // landing's volume. Every landing is crossed with every value: the pairs are sorted out below.
      `SELECT landing_id, phone, NULL AS email FROM leads WHERE landing_id = ANY($1::int[]) AND phone = ANY($2::text[]) AND created_at > now() - $4::interval
       UNION ALL
       SELECT landing_id, NULL, email FROM leads WHERE landing_id = ANY($1::int[]) AND email = ANY($3::text[]) AND created_at > now() - $4::interval`,
      [landings, phones, emails, DUPLICATE_WINDOW],
    );
    const seenPhones = new Set(found.flatMap((r) => (r.phone ? [personKey(r.landing_id, r.phone)] : [])));
    const seenEmails = new Set(found.flatMap((r) => (r.email ? [personKey(r.landing_id, r.email)] : [])));
    rows.forEach(({ landingId, lead }, i) => {
      const phone = lead.phone && personKey(landingId, lead.phone);
      const email = lead.email && personKey(landingId, lead.email);
      if ((phone && seenPhones.has(phone)) || (email && seenEmails.has(email))) statuses[i] = 'duplicate';
      if (phone) seenPhones.add(phone);
      if (email) seenEmails.add(email);
    });
  }

  const ids = await reserveIds(q, 'leads', rows.length);
  await copyRows(
    q,
    'leads',
    [
      'id',
      'landing_id',
      'entry_status',
      'source',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'url_presale',
      'visitor',
      'departement',
      'zone_climatique',
      'phone',
      'email',
      'data',
    ],
    rows.map(({ landingId, lead: l }, i) => [
      ids[i],
      landingId,
      statuses[i],
      l.source,
      l.utm_source,
      l.utm_medium,
      l.utm_campaign,
      l.url_presale,
      l.visitor,
      l.departement,
      l.zone_climatique,
      l.phone,
      l.email,
      l.data,
    ]),
  );
  return { ids, statuses, duplicates: statuses.filter((s) => s === 'duplicate').length };
}
