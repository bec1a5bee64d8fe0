import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  departementCodesQuery,
  departementCodesResponse,
  sendTargetingFields,
  sendTargetingResponse,
  taboolaAccountsResponse,
  taboolaCampaignsResponse,
  targetingResponse,
} from '../../src/api/taboola/contract';
import { currentUser } from '../context';
import { AppError, validationFailed } from '../errors';
import { checkPostalCodes, codesOfDepartements, codesOfText, codesOfXlsx, MAX_FILE_BYTES } from '../services/taboola/codes';
import { taboolaProvider } from '../services/taboola';
import { sendTargeting } from '../services/taboola/send';
import { accountNotFound, campaignNotFound } from '../services/taboola/sandbox';
import { parse } from '../validate';

type CampaignParams = { accountId: string; campaignId: string };

const accountIdOf = (raw: string) => {
  if (!/^[\w.@-]{1,100}$/.test(raw)) throw accountNotFound();
  return raw;
};
const campaignIdOf = (raw: string) => {
  if (!/^[\w-]{1,40}$/.test(raw)) throw campaignNotFound();
  return raw;
};

/** docs/product.md §5: a type other than ALL or INCLUDE, or INCLUDE without a list, is 'Erreur'. */
const erreur = (field: 'type' | 'file') => validationFailed({ [field]: 'Erreur' }, 'Erreur');

/**
 * A file part's bytes, refused the moment it passes MAX_FILE_BYTES: the parser only reports the
 * end of a part cut at its limit when the part ends, after the rest of the upload has been read.
 */
function fileBytes(part: MultipartFile): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    part.file.on('data', (chunk: Buffer) => chunks.push(chunk));
    part.file.once('limit', () =>
      reject(new AppError(413, 'payload_too_large', `Le fichier envoyé est trop volumineux (${MAX_FILE_BYTES / 1024 / 1024} Mo au plus)`)),
    );
    part.file.once('end', () => resolve(Buffer.concat(chunks)));
    part.file.once('error', reject);
  });
}

/** The fields of a send, multipart (`type`, `file`, `codes`) or JSON (`type`, `codes`); the file only as bytes. */
async function sendFields(req: FastifyRequest): Promise<{ fields: Record<string, unknown>; file?: Buffer }> {
  if (!req.isMultipart()) return { fields: req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {} };
  const fields: Record<string, unknown> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await fileBytes(part);
        if (part.fieldname === 'file' && bytes.length > 0) file = bytes;
      } else if (part.valueTruncated) {
        throw new AppError(413, 'payload_too_large', `Le champ ${part.fieldname.slice(0, 40)} est trop long`);
      } else {
        // A field given twice is kept as a list, as a query string's is: a type sent as both
        // INCLUDE and ALL is then refused instead of the last one winning.
        const seen = fields[part.fieldname];
        fields[part.fieldname] = seen === undefined ? part.value : [seen, part.value].flat();
      }
    }
  } catch (err) {
    // The multipart limits carry their status (errors plugin); the parser's own errors (a body
    // cut short, a broken part header) carry none.
    if (err instanceof AppError || (err as { statusCode?: number }).statusCode) throw err;
    throw new AppError(400, 'bad_request', 'Le formulaire envoyé est illisible (multipart mal formé)');
  }
  return { fields, file };
}

/** The whole form: the file, the typed codes (10,000 codes are 60 kB) and the type, with room for the multipart framing. */
const SEND_BODY_LIMIT = MAX_FILE_BYTES + 1024 * 1024;

/** Postal-code targeting of Taboola campaigns, through Backstage or its sandbox. */
export default async function taboolaRoutes(app: FastifyInstance) {
  const taboola = taboolaProvider(app.ctx);
  await app.register(multipart, { limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 * 1024 } });

  app.get('/api/taboola/accounts', { config: { auth: 'admin', response: taboolaAccountsResponse } }, async () => ({
    data: await taboola.accounts(),
    sandbox: taboola.sandbox,
  }));

  app.get<{ Params: { accountId: string } }>(
    '/api/taboola/campaigns/:accountId',
    { config: { auth: 'admin', response: taboolaCampaignsResponse } },
    async (req) => ({
      data: await taboola.campaigns(accountIdOf(req.params.accountId)),
      sandbox: taboola.sandbox,
    }),
  );

  app.get<{ Params: CampaignParams }>(
    '/api/taboola/campaigns/:accountId/:campaignId/codes',
    { config: { auth: 'admin', response: targetingResponse } },
    async (req) => ({
      data: await taboola.targeting(accountIdOf(req.params.accountId), campaignIdOf(req.params.campaignId)),
      sandbox: taboola.sandbox,
    }),
  );

  app.post<{ Params: CampaignParams }>(
    '/api/taboola/campaigns/:accountId/:campaignId/codes',
    { bodyLimit: SEND_BODY_LIMIT, config: { auth: 'admin', response: sendTargetingResponse } },
    async (req) => {
      const accountId = accountIdOf(req.params.accountId);
      const campaignId = campaignIdOf(req.params.campaignId);
      const { fields, file } = await sendFields(req);
      const parsed = sendTargetingFields.safeParse({
        type: fields.type,
        codes: typeof fields.codes === 'string' ? fields.codes : Array.isArray(fields.codes) ? fields.codes.join(',') : undefined,
        widen: fields.widen,
      });
      if (!parsed.success) throw erreur(parsed.error.issues.some((i) => i.path[0] === 'type') ? 'type' : 'file');
      const { type, codes: typed, widen } = parsed.data;
      let codes: string[] = [];
      if (type === 'INCLUDE') {
        if (!file && !typed?.trim()) throw erreur('file');
        codes = checkPostalCodes(file ? codesOfXlsx(file) : codesOfText(typed!));
      }
      const data = await sendTargeting(app.ctx, taboola, {
        userId: currentUser(req).id,
        accountId,
        campaignId,
        send: { type, codes },
        widen: widen === 'confirmed',
      });
      return { data, sandbox: taboola.sandbox, message: 'Codes postaux mis à jour' };
    },
  );

  app.get('/api/taboola/departements/codes', { config: { auth: 'admin', response: departementCodesResponse } }, async (req) => ({
    data: codesOfDepartements(parse(departementCodesQuery, req.query).departements),
  }));
}
