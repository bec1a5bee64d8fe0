import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { sendTargetingFields } from '../../../src/api/taboola/contract';
import { AppError, validationFailed } from '../../errors';
import { checkPostalCodes, codesOfText, codesOfXlsx, MAX_FILE_BYTES } from './codes';
import type { TargetingSend } from './send';

/** The whole form: the file, the typed codes (10,000 codes are 60 kB) and the type, with room for the multipart framing. */
export const SEND_BODY_LIMIT = MAX_FILE_BYTES + 1024 * 1024;

/** The multipart parser's limits for a send: one file, a few fields. */
export const sendMultipartLimits = { fileSize: MAX_FILE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 * 1024 };

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
export async function sendFields(req: FastifyRequest): Promise<{ fields: Record<string, unknown>; file?: Buffer }> {
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

/** The send a form asks for: ALL, or INCLUDE with the file's codes or the typed ones, each a known French postal code. */
export async function targetingOfForm({ fields, file }: { fields: Record<string, unknown>; file?: Buffer }): Promise<{ send: TargetingSend; widen: boolean }> {
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
    codes = checkPostalCodes(file ? await codesOfXlsx(file) : codesOfText(typed!));
  }
  return { send: { type, codes }, widen: widen === 'confirmed' };
}
