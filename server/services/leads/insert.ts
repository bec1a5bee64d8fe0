import type { EntryStatus, LeadSource } from '../../../src/api/leads/contract';
import { copyField, reserveIds } from '../../db/bulk';
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

/** The phones and emails a landing has seen, as the duplicate check reads them. */
class Seen {
  readonly #byLanding = new Map<number, { phones: Set<string>; emails: Set<string> }>();
  of(landingId: number) {
    let seen = this.#byLanding.get(landingId);
    if (!seen) this.#byLanding.set(landingId, (seen = { phones: new Set(), emails: new Set() }));
    return seen;
  }
}

/** A lead's landing and person, as the duplicate check compares them. */
export interface Person {
  landingId: number;
  phone: string | null;
  email: string | null;
}

/**
 * Inserts leads, each into its landing, with a single COPY (ids reserved first, so they follow
 * the input's order), inside the caller's transaction. With `flagDuplicates`, a lead whose phone
 * or email already reached its landing within 30 days (or earlier in the same input) gets the
 * status 'duplicate'. Answers the new ids, in input order, and their statuses.
 */
export async function insertLandingLeads(q: Queryable, rows: LandingLead[], flagDuplicates: boolean) {
  if (rows.length === 0) return { ids: [] as number[], statuses: [] as EntryStatus[], duplicates: 0 };
  const persons = rows.map(({ landingId, lead }) => ({ landingId, phone: lead.phone, email: lead.email }));
  const statuses = await leadStatuses(q, persons, flagDuplicates);
  return { ids: await copyLeads(q, rows, statuses), statuses, duplicates: statuses.filter((s) => s === 'duplicate').length };
}

/**
 * The status of each lead about to be inserted: 'new', or with `flagDuplicates` 'duplicate' for a
 * person already seen by the landing (above). On PostgreSQL it first takes a transaction-scoped
 * advisory lock per landing, in id order, which keeps two concurrent inserts from both missing
 * each other's duplicates until the caller's transaction ends; PGlite runs one transaction at a
 * time, so none can come between the check and the insert.
 */
export async function leadStatuses(q: Queryable, persons: Person[], flagDuplicates: boolean): Promise<EntryStatus[]> {
  const landings = [...new Set(persons.map((p) => p.landingId))].sort((a, b) => a - b);
  if (q.parallel) await q.query('SELECT pg_advisory_xact_lock(7340032, l) FROM unnest($1::int[]) AS l', [landings]);
  const statuses: EntryStatus[] = persons.map(() => 'new');
  if (!flagDuplicates) return statuses;
  const phones = new Set<string>();
  const emails = new Set<string>();
  for (const { phone, email } of persons) {
    if (phone) phones.add(phone);
    if (email) emails.add(email);
  }
  const { rows: found } = await q.query<{ landing_id: number; phone: string | null; email: string | null }>(
    // One branch per index (lead_persons_phone_idx, lead_persons_email_idx): the person's few leads,
    // whatever the landing's volume. Every landing is crossed with every value: the pairs are sorted
    // out below. The values go as one text a line each (normalised phones and emails hold no line
    // break): node-postgres wrote 200,000 values as an array literal in 60-80 ms, joined they take 10.
    `SELECT landing_id, phone, NULL AS email FROM lead_persons
      WHERE landing_id = ANY($1::int[]) AND phone = ANY(string_to_array($2, E'\\n')) AND created_at > now() - $4::interval
     UNION ALL
     SELECT landing_id, NULL, email FROM lead_persons
      WHERE landing_id = ANY($1::int[]) AND email = ANY(string_to_array($3, E'\\n')) AND created_at > now() - $4::interval`,
    [landings, [...phones].join('\n'), [...emails].join('\n'), DUPLICATE_WINDOW],
  );
  const seen = new Seen();
  for (const r of found) {
    if (r.phone) seen.of(r.landing_id).phones.add(r.phone);
    if (r.email) seen.of(r.landing_id).emails.add(r.email);
  }
  persons.forEach(({ landingId, phone, email }, i) => {
    const { phones, emails } = seen.of(landingId);
    if ((phone && phones.has(phone)) || (email && emails.has(email))) statuses[i] = 'duplicate';
    if (phone) phones.add(phone);
    if (email) emails.add(email);
  });
  return statuses;
}

/**
 * Copies leads with the statuses `leadStatuses` gave them: answers their new ids, in input order.
 * The leads may come in slices as they are checked (an import): the COPY waits for each.
 */
export async function copyLeads(q: Queryable, rows: LandingLead[] | AsyncIterable<LandingLead[]>, statuses: EntryStatus[]): Promise<number[]> {
  const ids = await reserveIds(q, 'leads', statuses.length);
  let i = 0;
  // Each lead's line of COPY's text format, built as the COPY sends it. Ids, landings, statuses
  // and sources never need an escape.
  function* lines(slice: LandingLead[]) {
    for (const { landingId, lead: l } of slice) {
      const fields = [l.utm_source, l.utm_medium, l.utm_campaign, l.url_presale, l.visitor, l.departement, l.zone_climatique, l.phone, l.email, l.data];
      yield `${ids[i]}\t${landingId}\t${statuses[i]}\t${l.source}\t${fields.map(copyField).join('\t')}`;
      i++;
    }
  }
  async function* slices() {
    for await (const slice of Array.isArray(rows) ? [rows] : rows) yield lines(slice);
  }
  await q.copyFrom(
    'leads (id, landing_id, entry_status, source, utm_source, utm_medium, utm_campaign, url_presale, visitor, departement, zone_climatique, phone, email, data)',
    slices(),
  );
  return ids;
}
