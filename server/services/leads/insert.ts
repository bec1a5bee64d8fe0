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

/**
 * Inserts leads into one landing with a single COPY (ids reserved first, so they follow the
 * input's order), inside the caller's transaction. With `flagDuplicates`, a lead whose phone or email already reached the
 * landing within 30 days (or earlier in the same batch) gets the status 'duplicate'. A
 * transaction-scoped advisory lock per landing keeps two concurrent batches from both missing
 * each other's duplicates. Answers the new ids, in input order, and their statuses.
 */
export async function insertLeads(q: Queryable, landingId: number, leads: NewLead[], flagDuplicates: boolean) {
  if (leads.length === 0) return { ids: [] as number[], statuses: [] as EntryStatus[], duplicates: 0 };
  await q.query('SELECT pg_advisory_xact_lock(7340032, $1)', [landingId]);

  const statuses: EntryStatus[] = leads.map(() => 'new');
  if (flagDuplicates) {
    const phones = [...new Set(leads.flatMap((l) => (l.phone ? [l.phone] : [])))];
    const emails = [...new Set(leads.flatMap((l) => (l.email ? [l.email] : [])))];
    const { rows } = await q.query<{ phone: string | null; email: string | null }>(
      // One branch per index (leads_phone_idx, leads_email_idx): the person's few leads, whatever the landing's volume.
      `SELECT phone, email FROM leads WHERE landing_id = $1 AND phone = ANY($2::text[]) AND created_at > now() - $4::interval
       UNION ALL
       SELECT phone, email FROM leads WHERE landing_id = $1 AND email = ANY($3::text[]) AND created_at > now() - $4::interval`,
      [landingId, phones, emails, DUPLICATE_WINDOW],
    );
    const seenPhones = new Set(rows.flatMap((r) => (r.phone ? [r.phone] : [])));
    const seenEmails = new Set(rows.flatMap((r) => (r.email ? [r.email] : [])));
    leads.forEach((l, i) => {
      if ((l.phone && seenPhones.has(l.phone)) || (l.email && seenEmails.has(l.email))) statuses[i] = 'duplicate';
      if (l.phone) seenPhones.add(l.phone);
      if (l.email) seenEmails.add(l.email);
    });
  }

  const ids = await reserveIds(q, 'leads', leads.length);
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
    leads.map((l, i) => [
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
