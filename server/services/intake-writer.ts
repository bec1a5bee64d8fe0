import type { EntryStatus } from '../../src/api/leads/contract';
import type { AppContext } from '../context';
import type { Db } from '../db/connection';
import { offerLeads } from './delivery/offer';
import { writeEvents } from './events/outbox';
import { insertLandingLeads, type LandingLead } from './leads/insert';

type WriterContext = Pick<AppContext, 'db' | 'jobs' | 'log'>;

/** What an intake's answer says of its lead. */
export interface WrittenLead {
  id: number;
  entry_status: EntryStatus;
}

interface Waiting extends LandingLead {
  written: (lead: WrittenLead) => void;
  failed: (err: unknown) => void;
}

/** Intakes written by one transaction at most: a larger burst is cut into batches of this size. */
const MAX_BATCH = 200;

/**
 * Intakes written by group commit: an intake that finds no write under way is written at once,
 * alone; those that arrive while one is being written wait for it and are then written together,
 * in arrival order, by one transaction (one duplicate check, one COPY, one events insert, one
 * offer to the engine). Each transaction costs PGlite's one connection a dozen statements and a
 * trigger run, and on PostgreSQL held the landing's lock across its COPY: written one by one,
 * intakes queued behind each other (docs/performance.md, 'Intakes written together').
 *
 * Each intake keeps its own answer: its id and status (the second of two intakes of one person in
 * a batch is its duplicate, as it would be one transaction later). A batch the database refuses
 * is written again one intake per transaction, so one faulty intake fails alone.
 */
class IntakeWriter {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly ctx: WriterContext) {}

  write(lead: LandingLead): Promise<WrittenLead> {
    return new Promise((written, failed) => {
      this.waiting.push({ ...lead, written, failed });
      if (!this.writing) void this.drain();
    });
  }

  private async drain() {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      try {
        const leads = await writeBatch(this.ctx, batch);
        batch.forEach((w, i) => w.written(leads[i]!));
      } catch (err) {
        if (batch.length === 1) batch[0]!.failed(err);
        else
          for (const w of batch)
            await writeBatch(this.ctx, [w]).then(
              ([lead]) => w.written(lead!),
              (alone: unknown) => w.failed(alone),
            );
      }
    }
    this.writing = false;
  }
}

/** The leads of a batch, their `lead.created` events and the offer of the new ones, in one transaction. */
function writeBatch(ctx: WriterContext, batch: LandingLead[]): Promise<WrittenLead[]> {
  return ctx.db.tx(async (q) => {
    const { ids, statuses } = await insertLandingLeads(q, batch, true);
    await writeEvents(
      q,
      'lead.created',
      batch.map(({ landingId, lead }, i) => ({ landing_id: landingId, lead_id: ids[i]!, departement: lead.departement, entry_status: statuses[i]! })),
      'all',
    );
    const fresh = ids.filter((_, i) => statuses[i] === 'new');
    if (fresh.length > 0) offerLeads(ctx, q, { leads: fresh });
    return ids.map((id, i) => ({ id, entry_status: statuses[i]! }));
  });
}

/** One writer per database, so per instance: the intakes of one server are gathered, not those of several. */
const writers = new WeakMap<Db, IntakeWriter>();

/** Writes an intake's lead, with the others arriving meanwhile: its id and status once committed. */
export function writeIntake(ctx: WriterContext, lead: LandingLead): Promise<WrittenLead> {
  let writer = writers.get(ctx.db);
  if (!writer) writers.set(ctx.db, (writer = new IntakeWriter(ctx)));
  return writer.write(lead);
}
