import type { FastifyInstance } from 'fastify';
import type { ReadyResponse } from '../../src/api/health/contract';
import { healthApi } from '../../src/api/health/endpoints';
import { route } from '../endpoint';

/** How long a readiness probe waits for the database before calling it unavailable. */
const PROBE_TIMEOUT_MS = 2000;

const within = <T>(promise: Promise<T>, fallback: T) =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), PROBE_TIMEOUT_MS).unref())]);

export default async function healthRoutes(app: FastifyInstance) {
  const { db, jobs } = app.ctx;

  route(app, healthApi.health, async () => ({ status: 'ok' as const }));

  route(app, healthApi.ready, async (_req, reply) => {
    const database = await within(
      db.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      false,
    );
    const queue = database && (await within(jobs.reachable(), false));
    const body: ReadyResponse = { status: database && queue ? 'ok' : 'unavailable', database, jobs: queue };
    reply.status(body.status === 'ok' ? 200 : 503).header('cache-control', 'no-store');
    return body;
  });
}
