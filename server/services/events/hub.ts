import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { liveEvent, type LiveEvent } from '../../../src/api/events/contract';
import type { Db } from '../../db/connection';
import type { SessionUser } from '../auth/sessions';
import { maySee, OutboxReader, purgedSince, readSince, toLiveEvent, type StoredEvent } from './outbox';
import { enterPlace, keepPlaces, leavePlace, sweepPlaces } from './presence';

/** What a stream writes to: its socket, as server-sent events. */
export interface StreamSink {
  write(text: string): void;
  end(): void;
}

export interface HubOptions {
  pollMs: number;
  heartbeatMs: number;
  /** Parse every event with its contract before sending it (the API tests). */
  check: boolean;
}

interface Listener {
  stream: string;
  user: SessionUser;
  tokenHash: string;
  place: string | undefined;
  /** The last event id this stream has passed: it receives only later ones. */
  last: number;
  /** Events fanned out while its replay is read, sent after it. */
  held: StoredEvent[] | undefined;
  sink: StreamSink;
}

/** One event in the text/event-stream format. */
function frame(event: LiveEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The live events of one instance: one poller reads the outbox (outbox.ts, never skipping an id)
 * and fans each event out to the streams of this instance that may see it; the heartbeat writes a
 * comment to each stream, keeps their presence, and ends the streams whose session ended. With no
 * stream open the poller sleeps, and the next stream starts it on a fresh reader from the outbox's
 * top: a resumed stream's replay reads what it missed meanwhile.
 */
export class EventHub {
  private reader = new OutboxReader();
  private readonly listeners = new Set<Listener>();
  /** Streams waiting for the poller's first settled top: the poller does not sleep while there are any. */
  private opening = 0;
  private stopped = false;
  private wakeUp: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private ready!: Promise<void>;
  private started!: () => void;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly opts: HubOptions,
  ) {}

  start(): void {
    this.freshReader();
    this.loop = this.run();
    this.heartbeat = setInterval(() => void this.beat().catch((err: unknown) => this.log.warn({ err }, 'events heartbeat failed')), this.opts.heartbeatMs);
  }

  /** Ends every stream and the poller (the server closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    this.wakeUp?.();
    for (const l of this.listeners) l.sink.end();
    this.listeners.clear();
    await this.loop;
  }

  private freshReader(): void {
    this.reader = new OutboxReader();
    this.ready = new Promise((resolve) => (this.started = resolve));
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.listeners.size === 0 && this.opening === 0) {
        if (this.reader.cursor !== undefined) this.freshReader();
        await this.sleep();
        continue;
      }
      try {
        const events = await this.reader.poll(this.db);
        if (this.reader.cursor !== undefined) this.started();
        for (const e of events) this.fanOut(e);
      } catch (err) {
        if (!this.stopped) this.log.warn({ err }, 'events poll failed');
      }
      if (this.stopped) break;
      await this.sleep(this.opts.pollMs);
    }
  }

  /** Until `open` or `stop` wakes the poller, or `ms` have passed. */
  private sleep(ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wakeUp = resolve;
      if (ms !== undefined) setTimeout(resolve, ms);
    });
  }

  private fanOut(e: StoredEvent): void {
    for (const l of this.listeners) {
      if (l.held) l.held.push(e);
      else this.deliver(l, e);
    }
  }

  private deliver(l: Listener, e: StoredEvent): void {
    if (e.id <= l.last) return;
    l.last = e.id;
    if (maySee(l.user, l.place, e)) this.send(l, toLiveEvent(e));
  }

  private send(l: Listener, event: LiveEvent): void {
    if (this.opts.check) liveEvent.parse(event);
    l.sink.write(frame(event));
  }

  /**
   * Opens a stream: after `after` it replays what the user missed (or tells it to reload when the
   * purge took some), then sends the events as they come; without it, from now. Its place, if any,
   * is entered (a presence event) and left when the stream ends.
   */
  async open(input: {
    user: SessionUser;
    tokenHash: string;
    after: number | undefined;
    place: string | undefined;
    sink: StreamSink;
  }): Promise<() => Promise<void>> {
    this.opening++;
    this.wakeUp?.();
    try {
      await this.ready;
    } finally {
      this.opening--;
    }
    const upTo = this.reader.cursor!;
    const l: Listener = { stream: randomUUID(), ...input, last: input.after ?? upTo, held: [] };
    this.listeners.add(l);
    // The id tells a client that has no event yet where it starts: on reconnecting (a new place)
    // it resumes from there instead of reading every query again.
    l.sink.write(`retry: 1000\nid: ${l.last}\n: ${this.opts.heartbeatMs / 1000}s\n\n`);
    try {
      if (input.after !== undefined && (await purgedSince(this.db, input.after))) {
        l.last = Math.max(l.last, upTo);
        this.send(l, { id: l.last, at: new Date().toISOString(), type: 'reload', data: { reason: 'gap' } });
      } else {
        for (let page = await readSince(this.db, l.user, l.place, l.last, upTo); page.length; page = await readSince(this.db, l.user, l.place, l.last, upTo)) {
          for (const e of page) this.deliver(l, e);
        }
        l.last = Math.max(l.last, upTo);
      }
      const held = l.held ?? [];
      l.held = undefined;
      for (const e of held) this.deliver(l, e);
      if (l.place) await enterPlace(this.db, l.stream, l.user.id, l.place, this.presenceTtlMs());
    } catch (err) {
      this.listeners.delete(l);
      throw err;
    }
    return () => this.close(l);
  }

  private async close(l: Listener): Promise<void> {
    if (!this.listeners.delete(l) && this.stopped) return;
    if (l.place) await leavePlace(this.db, l.stream, l.place);
  }

  /** A presence row outlives three missed heartbeats, no more. */
  private presenceTtlMs(): number {
    return this.opts.heartbeatMs * 3;
  }

  private async beat(): Promise<void> {
    const listeners = [...this.listeners];
    for (const l of listeners) l.sink.write(': heartbeat\n\n');
    if (listeners.length) {
      const { rows } = await this.db.query<{ token_hash: string }>(
        'SELECT token_hash FROM sessions WHERE token_hash = ANY($1::text[]) AND expires_at >= now()',
        [[...new Set(listeners.map((l) => l.tokenHash))]],
      );
      const live = new Set(rows.map((r) => r.token_hash));
      for (const l of listeners.filter((l) => !live.has(l.tokenHash))) l.sink.end();
      await keepPlaces(
        this.db,
        listeners.filter((l) => l.place && live.has(l.tokenHash)).map((l) => l.stream),
        this.presenceTtlMs(),
      );
    }
    await sweepPlaces(this.db);
  }
}
