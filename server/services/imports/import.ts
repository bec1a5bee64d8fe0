import type { z } from 'zod';
import type { Landing, LandingColumn } from '../../../src/api/landings/contract';
import { leadSource, trackingFields, type EntryStatus, type ImportRowError, type importRequest } from '../../../src/api/leads/contract';
import type { AppContext } from '../../context';
import { offerLanding } from '../delivery/offer';
import { writeEvents } from '../events/outbox';
import { AppError } from '../../errors';
import type { SessionUser } from '../auth/sessions';
import { copyLeads, leadStatuses, type NewLead, type Person } from '../leads/insert';
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
 * Checks every row against the landing's columns, then inserts all rows in one COPY and one
 * transaction, or nothing at all: the answer lists each faulty cell (row = 1-based index in `data`).
 * The database looks for duplicates of the rows' phones and emails while the rows are checked.
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
    // Both settled before the transaction ends, whichever fails: the duplicate query must not
    // outlive it on its connection. Faulty rows answer before a database error.
    const [found, checked] = await Promise.allSettled([leadStatuses(q, persons, true), checkedLeads(input, columns, header)]);
    if (checked.status === 'rejected') throw checked.reason;
    if (found.status === 'rejected') throw found.reason;
    const [statuses, leads] = [found.value, checked.value];
    const ids = await copyLeads(
      q,
      leads.map((lead) => ({ landingId: landing.id, lead })),
      statuses,
    );
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
 * Every row as a lead, or a 422 listing the faulty cells. The event loop turns every few thousand
 * rows: the duplicate query goes out meanwhile, and other requests are served.
 */
async function checkedLeads(input: ImportInput, columns: { column: LandingColumn; header: string }[], header: (key: string) => string): Promise<NewLead[]> {
  const errors: ImportRowError[] = [];
  const report = (e: ImportRowError) => {
    if (errors.length < MAX_ERRORS) errors.push(e);
  };
  const tracked = trackingFields.map((field) => ({ field, header: header(field) }));
  const landingColumns = columns.map((c) => c.column);
  const leads: NewLead[] = [];
  for (const [i, row] of input.data.entries()) {
    if (i % ROWS_PER_TURN === ROWS_PER_TURN - 1) await new Promise(setImmediate);
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
    leads.push({
      data,
      source: source as NewLead['source'],
      utm_source: tracking.utm_source,
      utm_medium: input.form_import_from,
      utm_campaign: tracking.utm_campaign,
      url_presale: tracking.url_presale,
      visitor: tracking.visitor,
      ...deriveFields(landingColumns, data),
    });
  }
  if (errors.length) {
    throw new AppError(422, 'validation_failed', "Impossible d'importer votre fichier, veuillez le vérifier.", { status: false, rows: errors });
  }
  return leads;
}
