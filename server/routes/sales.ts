import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { saleReturnRequest } from '../../src/api/sales/contract';
import { salesApi } from '../../src/api/sales/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { AppError, notFound } from '../errors';
import { formFields, registerFormBodies } from '../plugins/form-body';
import { consume, type RateLimit } from '../services/rate-limit';
import { listLeadSales, listReportSales } from '../services/sales/list';
import { saleOfToken } from '../services/sales/return-links';
import { returnPage, returnPageCsp, returnPageSale, type ReturnPageSale, type ReturnPageState } from '../services/sales/return-page';
import { returnableSale, returnSale } from '../services/sales/returns';
import { parse } from '../validate';
import { pathId } from '../route-params';

/** Opens and posts of return links per address in any minute (all instances together): a person returns a few leads, a script guessing tokens is slowed. */
const returnLinkLimit: RateLimit = { bucket: 'return-link', max: 30, windowSeconds: 60, message: 'Trop de requêtes, veuillez réessayer dans une minute' };

const unknownLink = () => notFound('Ce lien de retour est introuvable');

/** A browser (it asks for HTML) reads the page; a script gets the API's answers: JSON errors, JSON data on a return. */
const wantsPage = (req: FastifyRequest) => /\btext\/html\b/.test(req.headers.accept ?? '');

function sendPage(reply: FastifyReply, status: number, state: ReturnPageState) {
  return reply
    .status(status)
    .headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': returnPageCsp })
    .send(returnPage(state));
}

/**
 * A refusal (an AppError: its status and French message) as the page shows it, the form kept when
 * a corrected post may pass; to a script, the API's JSON error.
 */
function refused(req: FastifyRequest, reply: FastifyReply, err: unknown, state: Omit<ReturnPageState, 'form'>) {
  if (!(err instanceof AppError) || !wantsPage(req)) throw err;
  const fields = err.extras.errors as Record<string, string> | undefined;
  const message = fields ? Object.values(fields).join(' ; ') : err.message;
  return sendPage(reply.headers(err.headers), err.status, { ...state, message, form: err.status === 422 || err.status === 429 });
}

export default async function salesRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;
  await registerFormBodies(app);

  route(app, salesApi.ofLead, async (req) => ({
    data: await listLeadSales(db, pathId(req.params.id, 'Lead introuvable'), pathId(req.params.leadId, 'Lead introuvable')),
  }));

  route(app, salesApi.ofReport, async (req) => ({ data: await listReportSales(db, pathId(req.params.id, 'Rapport introuvable')) }));

  route(app, salesApi.return, async (req) => ({
    data: await returnSale(app.ctx, pathId(req.params.id, 'Vente introuvable'), req.body, currentUser(req).id),
  }));

  // The customer's own return page (no sign-in: the link's token is the right to return that sale only).
  route(app, salesApi.returnPage, async (req, reply) => {
    let sale: ReturnPageSale | undefined;
    try {
      await consume(db, returnLinkLimit, req.ip);
      const saleId = saleOfToken(config, req.params.token);
      sale = saleId === null ? undefined : await returnPageSale(db, saleId);
      if (saleId === null || !sale) throw unknownLink();
      const { refused: refusal } = await returnableSale(app.ctx, saleId);
      if (refusal) throw refusal;
    } catch (err) {
      return refused(req, reply, err, { sale });
    }
    return sendPage(reply, 200, { sale, form: true });
  });

  route(app, salesApi.returnByLink, async (req, reply) => {
    let state: Omit<ReturnPageState, 'form'> = {};
    try {
      await consume(db, returnLinkLimit, req.ip);
      const saleId = saleOfToken(config, req.params.token);
      const sale = saleId === null ? undefined : await returnPageSale(db, saleId);
      const fields = (await formFields(req)) as { reason?: unknown; comment?: unknown } | undefined;
      state = { sale, reason: String(fields?.reason ?? ''), comment: String(fields?.comment ?? '') };
      if (saleId === null || !sale) throw unknownLink();
      const done = await returnSale(app.ctx, saleId, parse(saleReturnRequest, fields), null);
      return wantsPage(req) ? sendPage(reply, 200, { sale, form: false, done: true }) : reply.send({ data: done });
    } catch (err) {
      return refused(req, reply, err, state);
    }
  });
}
