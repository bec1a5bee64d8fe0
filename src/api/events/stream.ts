import { backoffDelay } from './backoff';
import { liveEvent, type LiveEvent } from './contract';
import { eventsApi } from './endpoints';
import { SseParser } from './sse';

/** The server writes a heartbeat every 15 s: a connection silent for longer than two of them is dead. */
export const SILENCE_MS = 35_000;

export type LiveListener = (event: LiveEvent) => void;

export interface LiveStreamDeps {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  /** The session's token, read at each connection (null: signed out, nothing is asked). */
  token: () => string | null;
  random?: () => number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (timer: unknown) => void;
}

/**
 * The live events of GET /api/events, read with fetch (the token goes in the Authorization
 * header, never in the URL). It resumes after the last event received (Last-Event-ID), so a
 * dropped connection loses nothing; it reconnects with a jittered, capped backoff after an error,
 * an end or a silence longer than two heartbeats. Events the contract does not know are skipped.
 * Listeners receive every event; resync listeners are told when what they show may have missed
 * some (a `reload` event, or a new connection that could not resume) and must read it again.
 */
export class LiveStream {
  private listeners = new Set<LiveListener>();
  private resyncs = new Set<() => void>();
  private controller: AbortController | null = null;
  private lastId: string | undefined;
  private place: string | null = null;
  /** The place the current connection told the server. */
  private connectedPlace: string | null = null;
  private attempt = 0;
  private opened = 0;
  private retryTimer: unknown = null;
  private silenceTimer: unknown = null;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(private readonly deps: LiveStreamDeps) {
    this.setTimer = deps.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
    this.clearTimer = deps.clearTimeout ?? ((timer) => globalThis.clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  get running(): boolean {
    return this.controller !== null;
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  onResync(listener: () => void): () => void {
    this.resyncs.add(listener);
    return () => void this.resyncs.delete(listener);
  }

  /** Connects, unless already connected. */
  start() {
    if (!this.running) this.connect();
  }

  /** Closes the stream (sign-out): the next session starts afresh, from no event. */
  stop() {
    this.disconnect();
    this.lastId = undefined;
    this.opened = 0;
    this.attempt = 0;
  }

  /**
   * Where the user is (`landing:3/new`), for the others' presence; a change reconnects at once,
   * resuming. Before the stream's opening id a new connection could not resume, and the screens
   * would read everything again: it waits for that id.
   */
  setPlace(place: string | null) {
    if (place === this.place) return;
    this.place = place;
    if (this.running && this.lastId !== undefined) this.reconnect();
  }

  private reconnect() {
    this.disconnect();
    this.connect();
  }

  private disconnect() {
    const controller = this.controller;
    this.controller = null;
    this.clearTimer(this.retryTimer);
    this.clearTimer(this.silenceTimer);
    controller?.abort();
  }

  private connect() {
    const token = this.deps.token();
    if (!token) return;
    const controller = new AbortController();
    this.controller = controller;
    this.connectedPlace = this.place;
    void this.read(controller, token).finally(() => {
      if (this.controller !== controller) return; // stopped, or replaced by a new place
      this.clearTimer(this.silenceTimer);
      this.retryTimer = this.setTimer(
        () => {
          if (this.controller === controller) this.connect();
        },
        backoffDelay(this.attempt++, this.deps.random),
      );
    });
  }

  private async read(controller: AbortController, token: string) {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
    if (this.lastId !== undefined) headers['Last-Event-ID'] = this.lastId;
    const path = eventsApi.stream.path;
    const url = this.connectedPlace ? `${path}?place=${encodeURIComponent(this.connectedPlace)}` : path;
    try {
      const res = await this.deps.fetch(url, { headers, signal: controller.signal, cache: 'no-store' });
      if (res.status === 401 || res.status === 403) {
        // The session is over: no retry until the app signs in again and starts the stream.
        if (this.controller === controller) this.disconnect();
        return;
      }
      if (!res.ok || !res.body) return;
      this.watch(controller);
      if (this.opened++ > 0 && this.lastId === undefined) this.resync();
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      const parser = new SseParser();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || this.controller !== controller) return;
        this.watch(controller);
        this.attempt = 0;
        for (const message of parser.feed(decoder.decode(value, { stream: true }))) {
          if (message.id !== undefined) this.lastId = message.id;
          this.dispatch(message.data);
        }
        if (this.connectedPlace !== this.place && this.lastId !== undefined) return this.reconnect();
      }
    } catch {
      // A network error or an abort: the caller retries unless the stream was stopped.
    }
  }

  /** (Re)arms the silence timer: no byte for SILENCE_MS aborts the connection, which is then retried. */
  private watch(controller: AbortController) {
    this.clearTimer(this.silenceTimer);
    this.silenceTimer = this.setTimer(() => controller.abort(), SILENCE_MS);
  }

  private dispatch(data: string) {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = liveEvent.safeParse(json);
    if (!parsed.success) return;
    if (parsed.data.type === 'reload') this.resync();
    for (const listener of this.listeners) listener(parsed.data);
  }

  private resync() {
    for (const listener of this.resyncs) listener();
  }
}
