import { performance } from 'node:perf_hooks';

/** What the load sends, by kind of request, and the statuses each kind may answer under load. */
export const expectedStatuses = {
  list: [200],
  count: [200],
  stats: [200],
  reports: [200],
  status: [200],
  undo: [200],
  // 409: every lead chosen was sold meanwhile by another client or the delivery engine.
  export: [200, 409],
  download: [200],
  // 429: the address that floods the intake passed its 60 posts a minute.
  intake: [201, 429],
} as const;
export type Kind = keyof typeof expectedStatuses;
export const kinds = Object.keys(expectedStatuses) as Kind[];

/**
 * Counts and latencies of one run, per kind, as the responses come in. It also ends the run
 * cleanly: autocannon drops the requests under way when its time is up, and a write whose
 * answer is lost would break the exact reconciliation. So once `seconds` have passed no new
 * request is sent (the clients only ask /api/health, not counted), and the run stops when the
 * last answer came in.
 */
export class Tally {
  readonly statuses = Object.fromEntries(kinds.map((k) => [k, {}])) as Record<Kind, Record<number, number>>;
  readonly latencies = Object.fromEntries(kinds.map((k) => [k, []])) as unknown as Record<Kind, number[]>;
  /** The first answers no kind expects, for the failure message. */
  readonly unexpected: Array<{ kind: Kind; status: number; body: string }> = [];
  /** Exports that answered 200: download token → leads sold. */
  readonly exports = new Map<string, number>();
  /** Files downloaded: token → the lead ids in the file. */
  readonly files = new Map<string, number[]>();
  /** Leads created by the intake (201), and how many of them came from the flooding address. */
  accepted = 0;
  flooderAccepted = 0;

  private inFlight = 0;
  private deadline = Infinity;
  private stop?: () => void;
  /** When the first request left and the last answer came (performance.now()). */
  private first = 0;
  private last = 0;

  /** From now, `seconds` of load, then `stop` once every request has its answer. */
  open(seconds: number, stop: () => void) {
    this.deadline = performance.now() + seconds * 1000;
    this.stop = stop;
  }

  get closed() {
    return performance.now() >= this.deadline;
  }

  sent() {
    this.inFlight++;
    this.first ||= performance.now();
  }

  /** Stops the run once closed and nothing is under way. */
  settle() {
    if (!this.closed || this.inFlight > 0 || !this.stop) return;
    setImmediate(this.stop);
    this.stop = undefined;
  }

  /** Seconds from the first request to the last answer. */
  get seconds() {
    return (this.last - this.first) / 1000;
  }

  record(kind: Kind, status: number, ms: number, body: string) {
    this.inFlight--;
    this.last = performance.now();
    this.statuses[kind][status] = (this.statuses[kind][status] ?? 0) + 1;
    this.latencies[kind].push(ms);
    if (!(expectedStatuses[kind] as readonly number[]).includes(status) && this.unexpected.length < 20)
      this.unexpected.push({ kind, status, body: body.slice(0, 300) });
  }

  count(filter: (kind: Kind, status: number) => boolean): number {
    let n = 0;
    for (const kind of kinds) for (const [status, c] of Object.entries(this.statuses[kind])) if (filter(kind, Number(status))) n += c;
    return n;
  }

  get responses() {
    return this.count(() => true);
  }
  get serverErrors() {
    return this.count((_, s) => s >= 500);
  }
  get unexpectedCount() {
    return this.count((k, s) => !(expectedStatuses[k] as readonly number[]).includes(s));
  }
}

/** Nearest-rank percentile of `values` (sorted in place), in ms with one decimal. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  values.sort((a, b) => a - b);
  return Math.round(values[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] * 10) / 10;
}

export interface RunFigures {
  name: string;
  instances: number;
  database: string;
  leads: number;
  connections: number;
  seconds: number;
  /** CPU time the server processes used during the run (user + system, every instance). */
  serverCpuSeconds: number;
  /** The same for a database of its own (PostgreSQL); PGlite's is the server's. */
  databaseCpuSeconds?: number;
  tally: Tally;
}

const ms = (v: number) => (v >= 100 ? Math.round(v).toString() : v.toFixed(1));
const statusList = (s: Record<number, number>) =>
  Object.entries(s)
    .map(([code, n]) => `${code}: ${n}`)
    .join(', ');

/** The "Load" section's tables, ready to paste into docs/performance.md. */
export function markdownTables(runs: RunFigures[]): string {
  const lines = [
    '| Run | Database | Leads at start | Clients | Duration | Requests | Requests/s | Server CPU (s) | Requests per server CPU-second | Database CPU (s) | Requests per CPU-second, servers and database | p50 (ms) | p95 (ms) | p99 (ms) | 5xx | Expected 409 / 429 |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of runs) {
    const all = kinds.flatMap((k) => r.tally.latencies[k]);
    const t = r.tally;
    lines.push(
      `| ${r.name} | ${r.database} | ${r.leads.toLocaleString('en-US')} | ${r.connections} | ${r.seconds} s | ${t.responses.toLocaleString('en-US')} | ${Math.round(t.responses / t.seconds)} | ` +
        `${r.serverCpuSeconds.toFixed(1)} | ${Math.round(t.responses / r.serverCpuSeconds)} | ` +
        (r.databaseCpuSeconds === undefined
          ? 'in the server | – | '
          : `${r.databaseCpuSeconds.toFixed(1)} | ${Math.round(t.responses / (r.serverCpuSeconds + r.databaseCpuSeconds))} | `) +
        `${ms(percentile(all, 50))} | ${ms(percentile(all, 95))} | ${ms(percentile(all, 99))} | ${t.serverErrors} | ${t.count((_, s) => s === 409)} / ${t.count((_, s) => s === 429)} |`,
    );
  }
  lines.push('', '| Run | Request | Share | p50 (ms) | p95 (ms) | p99 (ms) | Answers |', '|---|---|---:|---:|---:|---:|---|');
  for (const r of runs) {
    for (const kind of kinds) {
      const values = r.tally.latencies[kind];
      if (!values.length) continue;
      const share = `${((100 * values.length) / r.tally.responses).toFixed(1)} %`;
      lines.push(
        `| ${r.name} | ${kind} | ${share} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ${ms(percentile(values, 99))} | ${statusList(r.tally.statuses[kind])} |`,
      );
    }
  }
  return lines.join('\n');
}
