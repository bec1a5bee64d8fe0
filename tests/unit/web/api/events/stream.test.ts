import { describe, expect, it } from 'vitest';
import { BACKOFF_CAP_MS, backoffDelay } from '../../../../../src/api/events/backoff';
import type { LiveEvent } from '../../../../../src/api/events/contract';
import { LiveStream, SILENCE_MS } from '../../../../../src/api/events/stream';

/** A server the test drives: each connection's request, and its body to write to or end. */
function harness(status = 200) {
  const connections: { url: string; headers: Record<string, string>; send: (text: string) => void; end: () => void; aborted: () => boolean }[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  let token: string | null = 'tok';
  const stream = new LiveStream({
    token: () => token,
    random: () => 0.5,
    fetch: async (url, init) => {
      let body!: ReadableStreamDefaultController<Uint8Array>;
      const signal = init.signal!;
      const readable = new ReadableStream<Uint8Array>({ start: (c) => void (body = c) });
      signal.addEventListener('abort', () => body.error(new DOMException('aborted', 'AbortError')));
      connections.push({
        url,
        headers: init.headers as Record<string, string>,
        send: (text) => body.enqueue(new TextEncoder().encode(text)),
        end: () => body.close(),
        aborted: () => signal.aborted,
      });
      return new Response(status === 200 ? readable : null, { status });
    },
    setTimeout: (fn, ms) => {
      const timer = { fn, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer) => {
      if (timer) (timer as { cleared: boolean }).cleared = true;
    },
  });
  const events: LiveEvent[] = [];
  let resyncs = 0;
  stream.subscribe((e) => events.push(e));
  stream.onResync(() => resyncs++);
  const settle = () => new Promise((r) => setTimeout(r, 5));
  /** Runs the live timer of that duration (the retry's or the silence's). */
  const fire = (predicate: (ms: number) => boolean) => {
    const timer = timers.find((t) => !t.cleared && predicate(t.ms));
    if (!timer) throw new Error('no such timer');
    timer.cleared = true;
    timer.fn();
  };
  const live = () => timers.filter((t) => !t.cleared).map((t) => t.ms);
  return { stream, connections, events, resyncs: () => resyncs, settle, fire, live, signOut: () => (token = null) };
}

const created = (id: number) =>
  `id: ${id}\nevent: lead.created\ndata: ${JSON.stringify({ id, at: '2026-11-28T10:00:00Z', type: 'lead.created', data: { landing_id: 1, lead_id: 100 + id, departement: '30', entry_status: 'new' } })}\n\n`;

describe('backoffDelay', () => {
  it('doubles from one second, is drawn between half and all of it, and never passes the cap', () => {
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 0.5)).toBe(6000);
    expect(backoffDelay(50, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(50, () => 0)).toBe(BACKOFF_CAP_MS / 2);
  });
});

describe('LiveStream', () => {
  it('signs in by header, never the URL, says where the user is, and hands over the events the contract knows', async () => {
    const h = harness();
    h.stream.setPlace('landing:3/new');
    h.stream.start();
    await h.settle();
    const [c] = h.connections;
    expect(c.url).toBe('/api/events?place=landing%3A3%2Fnew');
    expect(c.headers.Authorization).toBe('Bearer tok');
    expect(c.headers['Last-Event-ID']).toBeUndefined();
    c.send(': heartbeat\n\n' + created(1) + 'id: 2\nevent: future.kind\ndata: {"id":2,"type":"future.kind","at":"x","data":{}}\n\nid: 3\ndata: not json\n\n');
    c.send(created(4).slice(0, 20));
    await h.settle();
    expect(h.events.map((e) => e.id)).toEqual([1]);
    c.send(created(4).slice(20));
    await h.settle();
    expect(h.events.map((e) => e.id)).toEqual([1, 4]);
    h.stream.stop();
  });

  it('after the server closes, waits a jittered backoff growing with each failure, then resumes after the last event', async () => {
    const h = harness();
    h.stream.start();
    await h.settle();
    h.connections[0].send(created(5));
    await h.settle();
    h.connections[0].end();
    await h.settle();
    expect(h.live()).toContain(backoffDelay(0, () => 0.5));
    h.fire((ms) => ms === backoffDelay(0, () => 0.5));
    await h.settle();
    expect(h.connections[1].headers['Last-Event-ID']).toBe('5');
    // Closed again before any byte: the next wait is longer.
    h.connections[1].end();
    await h.settle();
    expect(h.live()).toContain(backoffDelay(1, () => 0.5));
    h.fire((ms) => ms === backoffDelay(1, () => 0.5));
    await h.settle();
    expect(h.connections).toHaveLength(3);
    expect(h.resyncs()).toBe(0);
    h.stream.stop();
  });

  it('gives up a connection silent past two heartbeats and reconnects', async () => {
    const h = harness();
    h.stream.start();
    await h.settle();
    h.fire((ms) => ms === SILENCE_MS);
    await h.settle();
    expect(h.connections[0].aborted()).toBe(true);
    h.fire((ms) => ms < SILENCE_MS);
    await h.settle();
    expect(h.connections).toHaveLength(2);
    h.stream.stop();
  });

  it('asks the screens to read again on a reload event, and after a reconnection that had no event to resume from', async () => {
    const h = harness();
    h.stream.start();
    await h.settle();
    h.connections[0].end();
    await h.settle();
    h.fire((ms) => ms < SILENCE_MS);
    await h.settle();
    expect(h.resyncs()).toBe(1);
    h.connections[1].send(`id: 9\nevent: reload\ndata: ${JSON.stringify({ id: 9, at: 'x', type: 'reload', data: { reason: 'gap' } })}\n\n`);
    await h.settle();
    expect(h.resyncs()).toBe(2);
    h.stream.stop();
  });

  it('a new place before any event resumes from the id the stream opened with, without reading everything again', async () => {
    const h = harness();
    h.stream.start();
    await h.settle();
    h.connections[0].send('retry: 1000\nid: 7\n: 15s\n\n');
    await h.settle();
    h.stream.setPlace('landing:1/new');
    await h.settle();
    expect(h.connections[1].headers['Last-Event-ID']).toBe('7');
    expect(h.events).toEqual([]);
    expect(h.resyncs()).toBe(0);
    h.stream.stop();
  });

  it('a new place before the opening id waits for it, then reconnects resuming from it, without reading everything again', async () => {
    const h = harness();
    h.stream.start();
    await h.settle();
    h.stream.setPlace('landing:1/new');
    await h.settle();
    expect(h.connections).toHaveLength(1);
    h.connections[0].send('retry: 1000\nid: 7\n: 15s\n\n');
    await h.settle();
    expect(h.connections[0].aborted()).toBe(true);
    expect(h.connections[1].url).toBe('/api/events?place=landing%3A1%2Fnew');
    expect(h.connections[1].headers['Last-Event-ID']).toBe('7');
    expect(h.resyncs()).toBe(0);
    expect(h.live()).toEqual([SILENCE_MS]);
    h.stream.stop();
  });

  it('a new place reconnects at once, resuming; stop and an ended session leave no retry behind', async () => {
    const h = harness();
    h.stream.start();
    await h.settle();
    h.connections[0].send(created(3));
    await h.settle();
    h.stream.setPlace('landing:1/archived');
    await h.settle();
    expect(h.connections[0].aborted()).toBe(true);
    expect(h.connections[1].url).toBe('/api/events?place=landing%3A1%2Farchived');
    expect(h.connections[1].headers['Last-Event-ID']).toBe('3');
    h.stream.stop();
    await h.settle();
    expect(h.connections[1].aborted()).toBe(true);
    expect(h.live()).toEqual([]);
    expect(h.stream.running).toBe(false);

    const refused = harness(401);
    refused.stream.start();
    await refused.settle();
    expect(refused.stream.running).toBe(false);
    expect(refused.live()).toEqual([]);

    const out = harness();
    out.signOut();
    out.stream.start();
    await out.settle();
    expect(out.connections).toHaveLength(0);
  });
});
