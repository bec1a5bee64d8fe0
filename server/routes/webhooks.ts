import type { FastifyInstance } from 'fastify';
import { webhooksApi } from '../../src/api/webhooks/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { customerNotFound } from '../services/lives/customers';
import { resumeWebhook } from '../services/delivery/webhook-resume';
import { pathId } from '../route-params';

export default async function webhooksRoutes(app: FastifyInstance) {
  route(app, webhooksApi.resume, async (req) => resumeWebhook(app.ctx, currentUser(req).id, pathId(req.params.id, customerNotFound)));
}
