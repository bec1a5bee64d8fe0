import type { FastifyInstance } from 'fastify';
import { eventsApi } from '../../src/api/events/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { validationFailed } from '../errors';
import { hashToken } from '../services/auth/sessions';
import { EventHub } from '../services/events/hub';

/** `Last-Event-ID` as browsers and EventSource clients send it back: an event id. */
function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^\d{1,15}$/.test(value)) throw validationFailed({ 'Last-Event-ID': "Identifiant d'événement invalide" });
  return Number(value);
}

export default async function eventsRoutes(app: FastifyInstance) {
  const { db, log, config } = app.ctx;
  const hub = new EventHub(db, log, {
    pollMs: config.EVENTS_POLL_MS,
    heartbeatMs: config.EVENTS_HEARTBEAT_SECONDS * 1000,
    check: config.checkContracts === true,
  });
  app.addHook('onReady', async () => hub.start());
  app.addHook('preClose', async () => hub.stop());

  route(app, eventsApi.stream, async (req, reply) => {
    const user = currentUser(req);
    const after = lastEventId(req.headers['last-event-id']) ?? req.query.after;
    const tokenHash = hashToken((req.headers.authorization ?? '').replace(/^Bearer\s+/i, ''));
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': req.id,
    });
    let ended = false;
    const sink = {
      write: (text: string) => void (ended || res.write(text)),
      end: () => {
        if (!ended) res.end();
        ended = true;
      },
    };
    let close: (() => Promise<void>) | undefined;
    const leave = () => void close?.().catch((err: unknown) => req.log.warn({ err }, 'events stream close failed'));
    res.on('close', () => {
      ended = true;
      leave();
    });
    try {
      close = await hub.open({ user, tokenHash, after, place: req.query.place, sink });
      if (ended) leave();
    } catch (err) {
      req.log.error({ err }, 'events stream failed');
      sink.end();
    }
    return reply;
  });
}
