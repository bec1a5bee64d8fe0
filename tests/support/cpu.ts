import { readFileSync } from 'node:fs';

/**
 * CPU seconds (user + system) a process has used so far, as its own process.cpuUsage() would say,
 * read from Linux's /proc/<pid>/stat (fields 14 and 15, in clock ticks of 1/100 s); with
 * `endedChildren`, also the time of its children that have ended and been waited for (16 and 17).
 * A process gone meanwhile counts 0.
 */
export function cpuSeconds(pid: number, endedChildren = false): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  const fields = stat.split(') ')[1]!.split(' ').map(Number);
  return (fields[11]! + fields[12]! + (endedChildren ? fields[13]! + fields[14]! : 0)) / 100;
}
