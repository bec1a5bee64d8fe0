import { chmodSync, createWriteStream, rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createServer, get, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { writeBackup } from './backup';

// Only one process may open a PGlite folder, so while the server runs it makes the backups
// itself: `npm run backup` asks it through a Unix socket beside the folder (DATA_DIR/pglite.sock),
// which only accounts that can read the folder may open. Nothing of it listens on the network.

export const backupSocketPath = (pgliteDir: string) => `${pgliteDir}.sock`;

/** Serves backups on the socket of the server's PGlite folder; closed with the app. No-op on PostgreSQL or in memory. */
export async function listenForBackups(app: FastifyInstance) {
  const { ctx } = app;
  const dir = ctx.config.pgliteDir;
  if (!ctx.db.frozen || !dir || ctx.config.DATABASE_URL) return;
  const path = backupSocketPath(dir);
  // This process holds the folder's lock: a socket left there is from a process that died.
  rmSync(path, { force: true });
  // One backup at a time: each holds a copy of the folder while it is packed.
  let queue: Promise<unknown> = Promise.resolve();
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    const started = Date.now();
    res.writeHead(200, { 'content-type': 'application/gzip' });
    const exportsDir = ctx.config.S3_URL ? undefined : join(ctx.config.dataDir, 'exports');
    queue = queue
      .then(() => writeBackup({ db: ctx.db, pgliteDir: dir, exportsDir }, res))
      .then(
        (stats) => ctx.log.info({ ...stats, ms: Date.now() - started }, 'backup written'),
        (err: unknown) => {
          ctx.log.error({ err }, 'backup failed');
          // Cut short, the client sees an incomplete answer and keeps nothing.
          res.destroy(err as Error);
        },
      );
  });
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
    chmodSync(path, 0o600);
  } catch (err) {
    ctx.log.warn({ err, path }, 'backups while running unavailable: the socket could not be opened');
    return;
  }
  app.addHook('onClose', async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(path, { force: true });
  });
}

/**
 * Asks the server running on `pgliteDir` for a backup and writes it to `file` (through `file.part`,
 * renamed once complete). Answers false when no server listens there.
 */
export async function requestBackup(pgliteDir: string, file: string): Promise<boolean> {
  let res: IncomingMessage;
  try {
    res = await new Promise<IncomingMessage>((resolve, reject) =>
      get({ socketPath: backupSocketPath(pgliteDir), path: '/backup' }, resolve).once('error', reject),
    );
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return false;
    throw err;
  }
  if (res.statusCode !== 200) throw new Error(`Le serveur a refusé la sauvegarde (HTTP ${res.statusCode})`);
  const part = `${file}.part`;
  try {
    await pipeline(res, createWriteStream(part));
    if (!res.complete) throw new Error('incomplete');
  } catch {
    await rm(part, { force: true });
    throw new Error('La sauvegarde a été interrompue par le serveur : voyez son journal (backup failed)');
  }
  await rename(part, file);
  return true;
}
