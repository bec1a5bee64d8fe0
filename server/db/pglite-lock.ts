import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes `<dir>.lock` for this process, or fails in French when another live process holds it.
 * PGlite keeps no lock of its own, and two processes writing one data folder (a second server,
 * the seed CLI next to a running server, or twice in one process) would corrupt it. A lock left
 * by a dead process is taken over. Returns the release function; the lock also goes when the
 * process exits.
 */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
        throw new Error(
          `La base PGlite ${dir} est déjà ouverte par le processus ${holder} (un serveur ou npm run seed) : arrêtez-le d'abord.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  const release = () => {
    process.off('exit', release);
    rmSync(file, { force: true });
  };
  process.on('exit', release);
  return release;
}
