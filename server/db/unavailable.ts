/** The embedded database's folder was removed or replaced under the running server (db/connection.ts). */
export class DataFolderGone extends Error {
  readonly code = 'DATA_DIR_GONE';
  constructor(dir: string) {
    super(
      `Le dossier de la base embarquée (${dir}) a disparu : la base est indisponible jusqu'au redémarrage du serveur, après avoir restauré le dossier ou une sauvegarde`,
    );
  }
}

/** Socket errors of a database that is down, restarting or out of reach. */
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a server going away or not yet back: 57P01 admin_shutdown (a restart ended the
 * session), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), and
 * class 08, connection exceptions.
 */
const unavailableState = (code: string) => code === '57P01' || code === '57P02' || code === '57P03' || /^08[0-9A-Z]{3}$/.test(code);

/**
 * What node-postgres says when a connection dies under a query, when no connection can be had in
 * time, or when this server has closed its pool to stop (a statement a job left unawaited).
 */
const lostConnection =
  /^Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection is closed|^Cannot use a pool after calling end on the pool/;

/**
 * Whether `err` says the database cannot be reached, as opposed to a fault of the request or of
 * the code: the answer is then a 503 to try again, not a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (err instanceof DataFolderGone) return true;
  if (typeof code === 'string' && (socketCodes.has(code) || unavailableState(code))) return true;
  if (typeof message === 'string' && lostConnection.test(message)) return true;
  // A host name with several addresses fails with one AggregateError for all of them.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable);
}
