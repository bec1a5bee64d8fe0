import { entryStatus, type EntryStatus, type LeadSource } from '../../../src/api/leads/contract';
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
 * Inserts leads into one landing with a single statement over unnest() arrays, inside the
 * caller's transaction. With `flagDuplicates`, a lead whose phone or email already reached the
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
      // Every status named: the landing's last 30 days are then index ranges of leads_list_idx.
      `SELECT phone, email FROM leads WHERE landing_id = $1 AND entry_status = ANY($5::text[]) AND created_at > now() - $4::interval
         AND (phone = ANY($2::text[]) OR email = ANY($3::text[]))`,
      [landingId, phones, emails, DUPLICATE_WINDOW, entryStatus.options],
    );
    const seenPhones = new Set(rows.flatMap((r) => (r.phone ? [r.phone] : [])));
    const seenEmails = new Set(rows.flatMap((r) => (r.email ? [r.email] : [])));
    leads.forEach((l, i) => {
      if ((l.phone && seenPhones.has(l.phone)) || (l.email && seenEmails.has(l.email))) statuses[i] = 'duplicate';
      if (l.phone) seenPhones.add(l.phone);
      if (l.email) seenEmails.add(l.email);
    });
  }

  const ids = (
    await q.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('leads', 'id'))::bigint AS id FROM generate_series(1, $1::int)`, [leads.length])
  ).rows.map((r) => r.id);
  const col = <K extends keyof NewLead>(k: K) => leads.map((l) => l[k]);
  await q.query(
    `INSERT INTO leads (id, landing_id, entry_status, source, utm_source, utm_medium, utm_campaign, url_presale, visitor,
                        departement, zone_climatique, phone, email, data)
     SELECT t.id, $1, t.st, t.src, t.us, t.um, t.uc, t.up, t.vi, t.dep, t.zone, t.phone, t.email, t.data::jsonb
       FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                   $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
            AS t(id, st, src, us, um, uc, up, vi, dep, zone, phone, email, data)`,
    [
      landingId,
      ids,
      statuses,
      col('source'),
      col('utm_source'),
      col('utm_medium'),
      col('utm_campaign'),
      col('url_presale'),
      col('visitor'),
      col('departement'),
      col('zone_climatique'),
      col('phone'),
      col('email'),
      leads.map((l) => JSON.stringify(l.data)),
    ],
  );
  return { ids, statuses, duplicates: statuses.filter((s) => s === 'duplicate').length };
}
