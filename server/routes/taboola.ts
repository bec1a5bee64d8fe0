import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { taboolaApi } from '../../src/api/taboola/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { codesOfDepartements } from '../services/taboola/codes';
import { campaignLandings, coveredTargeting, linkLandings } from '../services/taboola/covered';
import { SEND_BODY_LIMIT, sendFields, sendMultipartLimits, targetingOfForm } from '../services/taboola/form';
import { taboolaProvider } from '../services/taboola';
import { sendTargeting } from '../services/taboola/send';
import { accountNotFound, campaignNotFound } from '../services/taboola/sandbox';

const accountIdOf = (raw: string) => {
  if (!/^[\w.@-]{1,100}$/.test(raw)) throw accountNotFound();
  return raw;
};
const campaignIdOf = (raw: string) => {
  if (!/^[\w-]{1,40}$/.test(raw)) throw campaignNotFound();
  return raw;
};

/** Postal-code targeting of Taboola campaigns, through Backstage or its sandbox. */
export default async function taboolaRoutes(app: FastifyInstance) {
  const taboola = taboolaProvider(app.ctx);
  await app.register(multipart, { limits: sendMultipartLimits });

  route(app, taboolaApi.accounts, async () => ({ data: await taboola.accounts(), sandbox: taboola.sandbox }));

  route(app, taboolaApi.campaigns, async (req) => ({ data: await taboola.campaigns(accountIdOf(req.params.accountId)), sandbox: taboola.sandbox }));

  route(app, taboolaApi.targeting, async (req) => ({
    data: await taboola.targeting(accountIdOf(req.params.accountId), campaignIdOf(req.params.campaignId)),
    sandbox: taboola.sandbox,
  }));

  route(
    app,
    taboolaApi.send,
    async (req) => {
      const accountId = accountIdOf(req.params.accountId);
      const campaignId = campaignIdOf(req.params.campaignId);
      const { send, widen } = await targetingOfForm(await sendFields(req));
      const data = await sendTargeting(app.ctx, taboola, { userId: currentUser(req).id, accountId, campaignId, send, widen });
      return { data, sandbox: taboola.sandbox, message: 'Codes postaux mis à jour' };
    },
    { bodyLimit: SEND_BODY_LIMIT },
  );

  const campaignOf = (params: { accountId: string; campaignId: string }) => ({
    accountId: accountIdOf(params.accountId),
    campaignId: campaignIdOf(params.campaignId),
  });

  route(app, taboolaApi.landings, async (req) => ({ data: await campaignLandings(app.ctx.db, campaignOf(req.params)) }));

  route(app, taboolaApi.setLandings, async (req) => ({
    data: await linkLandings(app.ctx.db, taboola, currentUser(req).id, campaignOf(req.params), req.body.landings),
  }));

  route(app, taboolaApi.covered, async (req) => ({
    data: await coveredTargeting(app.ctx.db, taboola, campaignOf(req.params), req.query.at),
    sandbox: taboola.sandbox,
  }));

  route(app, taboolaApi.departementCodes, async (req) => ({ data: codesOfDepartements(req.query.departements) }));
}
