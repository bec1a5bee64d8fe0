import type { LiveEvent } from '../../src/api/events/contract';

/** One server-sent event as received, with the moment it arrived (performance.now()). */
export interface Received {
  id: number;
  type: string;
  event: LiveEvent;
  at: number;
}

/**
 * A GET /api/events stream read with fetch, as the console and an independent checker read it:
 * its events in arrival order, its heartbeat comments counted, `until` waiting for a condition.
 */
export interface EventStream {
  readonly events: Received[];
  readonly heartbeats: number;
  /** The id the server said the stream starts after (its opening, which carries no event). */
  readonly start: number | undefined;
  /** Resolves when the server ends the stream (sign-out, server closing). */
  readonly ended: Promise<void>;
  /** Waits until `test` holds of the events received (or fails after `timeoutMs`). */
  until(test: (events: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): void;
}

export async function openEventStream(
  baseUrl: string,
  token: string,
  opts: { after?: number; lastEventId?: number; place?: string } = {},
): Promise<EventStream> {
  const query = new URLSearchParams();
  if (opts.after !== undefined) query.set('after', String(opts.after));
  if (opts.place) query.set('place', opts.place);
  const abort = new AbortController();
  const res = await fetch(`${baseUrl}/api/events${query.size ? `?${query}` : ''}`, {
    headers: { authorization: `Bearer ${token}`, ...(opts.lastEventId !== undefined ? { 'last-event-id': String(opts.lastEventId) } : {}) },
    signal: abort.signal,
  });
  if (res.status !== 200) throw new Error(`GET /api/events: ${res.status} ${await res.text()}`);
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error(`GET /api/events: ${res.headers.get('content-type')}`);
  const events: Received[] = [];
  let heartbeats = 0;
  let start: number | undefined;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());

  const ended = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line === ': heartbeat') heartbeats++;
            const colon = line.indexOf(':');
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          const data = fields.get('data');
          if (data !== undefined)
            events.push({ id: Number(fields.get('id')), type: fields.get('event')!, event: JSON.parse(data) as LiveEvent, at: performance.now() });
          else if (fields.has('id')) start = Number(fields.get('id'));
        }
        notify();
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    } finally {
      notify();
    }
  })();
  let done = false;
  void ended.finally(() => (done = true));

  return {
    events,
    get heartbeats() {
      return heartbeats;
    },
    get start() {
      return start;
    },
    ended,
    until(test, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (test(events)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(events);
          } else if (done) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream ended; received ${JSON.stringify(events.map((e) => [e.id, e.type]))}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out; received ${JSON.stringify(events.map((e) => [e.id, e.type]))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
