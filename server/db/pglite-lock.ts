import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

/** What a lock file records of its holder; `started` and `boot` are missing where /proc is (not Linux). */
interface Holder {
  pid: number;
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat, field 22). */
  started?: string;
  /** The kernel's boot id: ticks since boot repeat from one boot to the next. */
  boot?: string;
}

const readOr = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** Start time of a process, or undefined without /proc or without that process. */
function startedAt(pid: number | 'self'): string | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

const bootId = () => readOr('/proc/sys/kernel/random/boot_id')?.trim();

/** When a process started, in ms since 1970 (boot time + its start ticks; Linux counts 100 ticks a second for userspace). */
function startedEpochMs(pid: number): number | undefined {
  const ticks = startedAt(pid);
  const bootSeconds = /^btime (\d+)$/m.exec(readOr('/proc/stat') ?? '')?.[1];
  return ticks === undefined || bootSeconds === undefined ? undefined : Number(bootSeconds) * 1000 + Number(ticks) * 10;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    // Locks written before the start time was recorded hold the bare pid.
    const holder = (typeof value === 'number' ? { pid: value } : value) as Holder;
    return Number.isInteger(holder?.pid) && holder.pid > 0 ? holder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A lock is held while its process lives: the same pid, and, where /proc tells, the same boot and
 * start time. In a container process ids repeat at every start, so the pid of a server killed
 * with its container often belongs to another live process at the next start; its start time
 * tells the two apart.
 */
function heldBy(holder: Holder, lockWrittenMs: number): boolean {
  if (!alive(holder.pid)) return false;
  if (holder.boot !== undefined && bootId() !== undefined && holder.boot !== bootId()) return false;
  if (holder.started !== undefined) {
    const started = startedAt(holder.pid);
    return started === undefined || started === holder.started;
  }
  // A lock of an older version holds the bare pid: a process started after the lock was written
  // cannot have written it (a second of slack for the clocks' rounding).
  const started = startedEpochMs(holder.pid);
  return started === undefined || started <= lockWrittenMs + 1000;
}

/** The record this process writes into its lock. */
export const thisHolder = (): Holder => ({ pid: process.pid, started: startedAt('self'), boot: bootId() });

/**
 * Takes `<dir>.lock` for this process, or fails in French when another live process holds it.
 * PGlite keeps no lock of its own, and two processes writing one data folder (a second server,
 * the seed CLI next to a running server, or twice in one process) would corrupt it. A lock left
 * by a dead process, or whose pid now names another process, is taken over. Returns the release
 * function; the lock also goes when the process exits.
 */
export function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(thisHolder()));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = parseHolder(readOr(file) ?? '');
      const written = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      if (holder && heldBy(holder, written)) {
        throw new Error(`La base PGlite ${dir} est déjà ouverte par le processus ${holder.pid} (un serveur ou npm run seed) : arrêtez-le d'abord.`);
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
