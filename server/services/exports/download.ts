import type { Readable } from 'node:stream';
import type { BookType } from '../../../src/api/leads/contract';
import type { Config } from '../../config';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../errors';
import { audit } from '../audit';
import { exportStorage } from './extract';
import { attachmentHeader } from './filenames';
import { contentTypes } from './writers';

const exportNotFound = () => notFound('Export introuvable');

/**
 * The file behind a download capability; the name in the link must be the export's own. Only a
 * download (`logged`) goes to the audit log: a HEAD, which transfers nothing, does not.
 */
export async function openDownload(db: Queryable, config: Config, token: string, filename: string, logged: boolean) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw exportNotFound();
  const { rows } = await db.query<{ id: number; filename: string; book_type: BookType; storage_key: string | null; state: string }>(
    'SELECT id, filename, book_type, storage_key, state FROM exports WHERE token = $1',
    [token],
  );
  const exp = rows[0];
  if (!exp || exp.filename !== filename || exp.state !== 'ready' || !exp.storage_key) throw exportNotFound();
  const file = await exportStorage(config).get(exp.storage_key);
  if (!file) throw exportNotFound();
  if (logged) await audit(db, { actorId: null, action: 'download', entity: 'export', count: 1, details: { export_id: exp.id } });
  const headers = {
    'content-type': contentTypes[exp.book_type],
    'content-disposition': attachmentHeader(exp.filename),
    'content-length': String(file.size),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  return { headers, body: file.body as Readable };
}
