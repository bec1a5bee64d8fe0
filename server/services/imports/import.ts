import type { z } from 'zod';
import type { Landing, LandingColumn } from '../../../src/api/landings/contract';
import { leadSource, trackingFields, type EntryStatus, type ImportRowError, type importRequest } from '../../../src/api/leads/contract';
import type { AppContext } from '../../context';
import { offerLanding } from '../delivery/offer';
import { writeEvents } from '../events/outbox';
import { AppError } from '../../errors';
import type { SessionUser } from '../auth/sessions';
import { copyLeads, leadStatuses, type LandingLead, type NewLead, type Person } from '../leads/insert';
import { deriveFields, MAX_CELL_LENGTH, normalizeCell, own, setValue, type Cell } from '../leads/normalize';
import { audit } from '../audit';

type ImportInput = z.output<typeof importRequest>;

/** At most this many faulty cells are listed in a refusal. */
const MAX_ERRORS = 500;

const text = (v: Cell) => (v === null || v === undefined || String(v).trim() === '' ? null : String(v).trim());

/** An import's events: one per status its leads got, not one per lead (an import may hold 100,000). */
function importedEvents(landingId: number, ids: number[], statuses: EntryStatus[], user: SessionUser) {
  const groups = new Map<EntryStatus, { count: number; first_id: number; last_id: number }>();
  ids.forEach((id, i) => {
    const g = groups.get(statuses[i]!);
    if (!g) groups.set(statuses[i]!, { count: 1, first_id: id, last_id: id });
    else {
      g.count++;
      g.first_id = Math.min(g.first_id, id);
      g.last_id = Math.max(g.last_id, id);
    }
  });
  return [...groups].map(([entry_status, g]) => ({ landing_id: landingId, entry_status, ...g, by: { id: user.id, name: user.name } }));
}

/** Rows between two turns of the event loop while an import's rows are checked. */
const ROWS_PER_TURN = 5_000;

/**
 * Checks every row against the landing's columns and inserts all rows in one COPY and one
 * transaction, or nothing at all: the answer lists each faulty cell (row = 1-based index in `data`).
 * The database looks for duplicates of the rows' phones and emails while the first rows are
 * checked, then copies the rows as they pass; a faulty row fails the COPY, and the transaction
 * with it.
 */
export async function importLeads(ctx: Pick<AppContext, 'db' | 'jobs' | 'log'>, user: SessionUser, landing: Landing, input: ImportInput) {
  const header = (key: string) => (Object.prototype.hasOwnProperty.call(input.columns, key) ? input.columns[key]! : key);
  const columns = landing.columns.map((column) => ({ column, header: header(column.key) }));
  // Each row's phone and email as its checked values will give them (deriveFields: the first valid one).
  const personColumns = columns.filter(({ column }) => column.type === 'phone' || column.type === 'email');
  const persons = input.data.map((row): Person => {
    const person: Person = { landingId: landing.id, phone: null, email: null };
    for (const { column, header } of personColumns) {
      const cell = normalizeCell(column, own(row, header));
      if (cell.ok && cell.value !== null) person[column.type as 'phone' | 'email'] ??= String(cell.value);
    }
    return person;
  });

  return ctx.db.tx(async (q) => {
    const checked = new Slices<LandingLead>();
    const copy = async () => {
      const statuses = await leadStatuses(q, persons, true);
      return { statuses, ids: await copyLeads(q, checked, statuses) };
    };
    // Both settled before the transaction ends, whichever fails: no statement may outlive it on
    // its connection. Faulty rows answer before a database error.
    const [checks, copied] = await Promise.allSettled([checkRows(input, columns, header, landing.id, checked), copy()]);
    if (checks.status === 'rejected') throw checks.reason;
    if (copied.status === 'rejected') throw copied.reason;
    const { statuses, ids } = copied.value;
    const duplicates = statuses.filter((s) => s === 'duplicate').length;
    await q.query('INSERT INTO imports (landing_id, user_id, source, count, duplicates) VALUES ($1, $2, $3, $4, $5)', [
      landing.id,
      user.id,
      input.form_import_from,
      ids.length,
      duplicates,
    ]);
    await audit(q, { actorId: user.id, action: 'import', entity: 'leads', count: ids.length, details: { landing: landing.id, duplicates } });
    await writeEvents(q, 'leads.imported', importedEvents(landing.id, ids, statuses, user), 'all');
    offerLanding(ctx, q, landing.id);
    return { data: { inserted: ids.length, duplicates }, message: 'Leads importés' };
  });
}

/**
 * Slices of rows from a producer that never waits to a consumer that waits for the next one; the
 * producer's failure ends the consumer's iteration with it, slices still queued or not.
 */
class Slices<T> implements AsyncIterable<T[]> {
  readonly #queued: T[][] = [];
  #end: { failure?: unknown } | undefined;
  #wake: (() => void) | undefined;
  push(slice: T[]) {
    this.#queued.push(slice);
    this.#wake?.();
  }
  end(failure?: unknown) {
    this.#end = { failure };
    this.#wake?.();
  }
  async *[Symbol.asyncIterator]() {
    for (;;) {
      if (this.#end?.failure !== undefined) throw this.#end.failure;
      const slice = this.#queued.shift();
      if (slice) yield slice;
      else if (this.#end) return;
      else await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

/**
 * Checks every row; while none is faulty, hands the leads to `out` a few thousand at a time,
 * letting the event loop turn between two (the COPY and other requests go on). Ends `out`, and
 * rejects, with a 422 listing the faulty cells.
 */
async function checkRows(
  input: ImportInput,
  columns: { column: LandingColumn; header: string }[],
  header: (key: string) => string,
  landingId: number,
  out: Slices<LandingLead>,
): Promise<void> {
  try {
    const errors: ImportRowError[] = [];
    const report = (e: ImportRowError) => {
      if (errors.length < MAX_ERRORS) errors.push(e);
    };
    const tracked = trackingFields.map((field) => ({ field, header: header(field) }));
    const landingColumns = columns.map((c) => c.column);
    let slice: LandingLead[] = [];
    for (const [i, row] of input.data.entries()) {
      if (i > 0 && i % ROWS_PER_TURN === 0) {
        if (errors.length === 0) out.push(slice);
        slice = [];
        await new Promise(setImmediate);
      }
      const data: Record<string, unknown> = {};
      let ok = true;
      for (const { column, header } of columns) {
        const cell = normalizeCell(column, own(row, header));
        if (cell.ok) {
          if (cell.value !== null) setValue(data, column.key, cell.value);
        } else {
          ok = false;
          report({ row: i + 1, column: column.key, message: cell.message });
        }
      }
      const tracking = {} as Record<(typeof trackingFields)[number], string | null>;
      for (const { field, header } of tracked) {
        const value = text(own(row, header));
        if (value !== null && value.length > MAX_CELL_LENGTH) {
          ok = false;
          report({ row: i + 1, column: field, message: `Valeur trop longue (${MAX_CELL_LENGTH} caractères au plus)` });
        }
        tracking[field] = value;
      }
      const source = tracking.source === null ? 'autre' : tracking.source.toLowerCase();
      if (!leadSource.safeParse(source).success) {
        ok = false;
        report({ row: i + 1, column: 'source', message: `Source inconnue (${leadSource.options.join(', ')})` });
      }
      if (!ok) continue;
      const lead: NewLead = {
        data,
        source: source as NewLead['source'],
        utm_source: tracking.utm_source,
        utm_medium: input.form_import_from,
        utm_campaign: tracking.utm_campaign,
        url_presale: tracking.url_presale,
        visitor: tracking.visitor,
        ...deriveFields(landingColumns, data),
      };
      slice.push({ landingId, lead });
    }
    if (errors.length) {
      throw new AppError(422, 'validation_failed', "Impossible d'importer votre fichier, veuillez le vérifier.", { status: false, rows: errors });
    }
    out.push(slice);
    out.end();
  } catch (err) {
    out.end(err);
    throw err;
  }
}
