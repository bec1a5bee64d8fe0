import { personEmail, personPhone } from '../sales/person';

/**
 * The replayed leads as columns (issue 27, 'What-if simulation'): typed arrays indexed by the
 * lead's rank in arrival order, the text a rule compares held once in a dictionary and each lead
 * holding its index. The replay's loop then does integer work: no object per lead, no string
 * built or hashed per lead and rule (docs/performance.md, "What-if simulation").
 */
export interface ReplayLeads {
  length: number;
  id: Float64Array;
  /** Arrival, epoch ms. */
  at: Float64Array;
  /** Its landing, an index in `landings` (their ids). */
  landing: Int32Array;
  landings: number[];
  /** Its department and its 5-digit postal code as indexes in `zips` (the rules' zip keys), -1 when none (or not read). */
  departement: Int32Array;
  postalCode: Int32Array;
  zips: string[];
  /** Its person (personOf's phone and email) as an index in `persons`, -1 when none. */
  phone: Int32Array;
  email: Int32Array;
  persons: Persons;
  /** The values that filters read, by filter column: each lead's index in `values`, -1 when it has none (null, absent, an object: fieldOf reads them alike). */
  fields: Map<string, { codes: Int32Array; values: unknown[] }>;
}

/** The comparable phones and emails of the replayed leads, each once. */
export interface Persons {
  phones: Map<string, number>;
  emails: Map<string, number>;
}

/** The leads as read: one array per column, in arrival order; the raw phone and email (absent: not read), the filtered values by column. */
export interface LeadRows {
  id: number[];
  landing_id: number[];
  at: number[];
  departement: Array<string | null>;
  postal_code?: Array<string | null>;
  phone?: Array<string | null>;
  email?: Array<string | null>;
  fields: Record<string, unknown[]>;
}

/** The index of `key` in a dictionary, added when new. */
function intern<K>(dictionary: Map<K, number>, key: K): number {
  const known = dictionary.get(key);
  if (known !== undefined) return known;
  dictionary.set(key, dictionary.size);
  return dictionary.size - 1;
}

const fiveDigits = /^\d{5}$/;

/** The columns of `rows`, encoded. */
export const replayLeads = (rows: LeadRows): ReplayLeads => appendLeads(undefined, rows);

/** Typed arrays of `length`: `kept`'s values first, the rest `fill`. */
function grown<A extends Float64Array | Int32Array>(kept: A | undefined, make: (length: number) => A, length: number, fill = 0): A {
  const array = make(length).fill(fill) as A;
  if (kept) array.set(kept);
  return array;
}

/**
 * `rows` (arriving after every lead of `leads`) encoded after `leads`, whose dictionaries they
 * extend: a new object (the replays' per-world state is sized by its length); `leads` is no
 * longer to be used, as its dictionaries are shared.
 */
export function appendLeads(leads: ReplayLeads | undefined, rows: LeadRows): ReplayLeads {
  const from = leads?.length ?? 0;
  const length = from + rows.id.length;
  const landingIndex = new Map((leads?.landings ?? []).map((id, i) => [id, i]));
  const zipIndex = new Map<string, number>((leads?.zips ?? ['']).map((zip, i) => [zip, i]));
  const persons: Persons = leads?.persons ?? { phones: new Map(), emails: new Map() };
  const next: ReplayLeads = {
    length,
    id: grown(leads?.id, (n) => new Float64Array(n), length),
    at: grown(leads?.at, (n) => new Float64Array(n), length),
    landing: grown(leads?.landing, (n) => new Int32Array(n), length),
    landings: [],
    departement: grown(leads?.departement, (n) => new Int32Array(n), length, -1),
    postalCode: grown(leads?.postalCode, (n) => new Int32Array(n), length, -1),
    zips: [],
    phone: grown(leads?.phone, (n) => new Int32Array(n), length, -1),
    email: grown(leads?.email, (n) => new Int32Array(n), length, -1),
    persons,
    fields: new Map(),
  };
  for (let r = 0, n = from; n < length; r++, n++) {
    next.id[n] = rows.id[r];
    next.at[n] = rows.at[r];
    next.landing[n] = intern(landingIndex, rows.landing_id[r]);
    const departement = rows.departement[r];
    if (departement) next.departement[n] = intern(zipIndex, departement);
    const postalCode = rows.postal_code?.[r];
    if (postalCode && fiveDigits.test(postalCode)) next.postalCode[n] = intern(zipIndex, postalCode);
    // The person made comparable here, not by person_phone() in SQL: a PL/pgSQL call per lead is the leads statement's dearest part.
    const phone = personPhone(rows.phone?.[r] ?? null);
    if (phone !== null) next.phone[n] = intern(persons.phones, phone);
    const email = personEmail(rows.email?.[r] ?? null);
    if (email !== null) next.email[n] = intern(persons.emails, email);
  }
  next.landings = [...landingIndex.keys()];
  next.zips = [...zipIndex.keys()];
  for (const [column, values] of Object.entries(rows.fields)) {
    const known = leads?.fields.get(column);
    const dictionary = new Map<unknown, number>((known?.values ?? []).map((v, i) => [v, i]));
    const codes = grown(known?.codes, (n) => new Int32Array(n), length);
    for (let r = 0, n = from; n < length; r++, n++) {
      const v = values[r];
      codes[n] = v === null || v === undefined || typeof v === 'object' ? -1 : intern(dictionary, v);
    }
    next.fields.set(column, { codes, values: [...dictionary.keys()] });
  }
  return next;
}

/** The index of a recorded sale's person in the leads' dictionary (-1: none), added when new: a lead appended later may be that person. */
export const personIndex = (dictionary: Map<string, number>, key: string | null): number => (key === null ? -1 : intern(dictionary, key));
