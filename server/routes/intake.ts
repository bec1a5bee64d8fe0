import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { leadsApi } from '../../src/api/leads/endpoints';
import { route } from '../endpoint';
import { AppError } from '../errors';
import { formFields, isFormPost, registerFormBodies } from '../plugins/form-body';
import { messageOf } from '../plugins/errors';
import { intakeLead } from '../services/intake';
import { getIntakeLanding } from '../services/leads/landings';
import { consume, type RateLimit } from '../services/rate-limit';

/** Posts per address accepted from landing pages in any minute, counted in the database (all instances together). */
const intakeLimit: RateLimit = { bucket: 'intake', max: 60, windowSeconds: 60, message: 'Trop de requêtes, veuillez réessayer dans une minute' };

/** A refusal as the landing's thank-you page reads it: the French sentence, with the faulty fields of a 422. */
function refusalText(err: FastifyError | AppError, bodyLimit: number): string {
  const message = messageOf(err, bodyLimit);
  const fields = err instanceof AppError ? (err.extras.errors as Record<string, string> | undefined) : undefined;
  return fields
    ? `${message} : ${Object.entries(fields)
        .map(([field, why]) => `${field} (${why})`)
        .join(', ')}`
    : message;
}

const seeOther = (reply: FastifyReply, target: string) => reply.redirect(target, 303);

export default async function intakeRoutes(app: FastifyInstance) {
  await registerFormBodies(app);
  // Landing pages live on other origins: the intake answers any origin, without credentials.
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST, OPTIONS', 'access-control-allow-headers': 'content-type' };
  route(app, leadsApi.intakePreflight, async (_req, reply) =>
    reply
      .headers({ ...cors, 'access-control-max-age': '86400' })
      .status(204)
      .send(),
  );

  route(
    app,
    leadsApi.intake,
    async (req, reply) => {
      const { lead, thankYouUrl } = await intakeLead(app.ctx, req.params.key, await formFields(req));
      if (thankYouUrl && isFormPost(req)) return seeOther(reply, thankYouUrl);
      reply.status(201);
      return { data: lead };
    },
    {
      // Counted before the body is read, so that refused posts cost no parsing.
      onRequest: async (req) => consume(app.ctx.db, intakeLimit, req.ip),
      onSend: async (_req, reply) => {
        reply.headers(cors);
      },
      // A plain HTML form of a landing with a thank-you page goes back to that page with the
      // refusal in `?error=`; scripts, and forms of landings without one, get the JSON answer.
      errorHandler: async (err: FastifyError | AppError, req: FastifyRequest, reply) => {
        const { key } = req.params as { key: string };
        const landing = isFormPost(req) ? await getIntakeLanding(app.ctx.db, key).catch(() => undefined) : undefined;
        if (!landing?.thank_you_url) throw err;
        if (!(err instanceof AppError) && !((err.statusCode ?? 500) < 500)) req.log.error({ err }, 'intake form post failed');
        const target = new URL(landing.thank_you_url);
        target.searchParams.set('error', refusalText(err, req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit));
        return seeOther(reply, target.toString());
      },
    },
  );
}
