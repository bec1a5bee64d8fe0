// `npm run bench`: runs every tests/bench/*.bench.ts in turn and prints its figures.
// A bench module exports `default async function (): Promise<BenchResult[]>`.
// `npm run bench -- grid palette` runs only the benches whose file names contain those words; a word
// that is a bench's whole name runs that one alone (`delivery`, not also `delivery-ramp`).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface BenchResult {
  /** What was measured, e.g. 'lead page, 150 rows, two filters (p95)'. */
  name: string;
  value: number;
  unit: 'ms' | 's' | 'kB' | 'MB' | 'ratio' | 'count' | 'score';
  /** The budget of docs/decisions.md §7, when there is one: the result passes when value < budget. */
  budget?: number;
  /** A floor instead, for a figure the higher the better (a Lighthouse score): passes when value ≥ goal. */
  goal?: number;
  /** Decimals printed (1 unless told): a layout shift of 0.012 needs three. */
  decimals?: number;
  /** A peer measured in the same run, e.g. stock cmdk or AG Grid. */
  peer?: { name: string; value: number };
}

const dir = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((w) => (readdirSync(dir).includes(`${w}.bench.ts`) ? f === `${w}.bench.ts` : f.includes(w))))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const mod = (await import(`./${file}`)) as { default: () => Promise<BenchResult[]> };
  for (const r of await mod.default()) {
    const over = r.budget !== undefined && r.value >= r.budget;
    const under = r.goal !== undefined && r.value < r.goal;
    if (over || under) failed++;
    const budget = r.budget !== undefined ? ` (budget < ${r.budget} ${r.unit}${over ? ', OVER' : ''})` : '';
    const goal = r.goal !== undefined ? ` (goal ≥ ${r.goal}${under ? ', UNDER' : ''})` : '';
    const peer = r.peer ? ` · ${r.peer.name}: ${r.peer.value.toFixed(1)} ${r.unit} · ratio ${(r.value / r.peer.value).toFixed(2)}` : '';
    console.log(`- ${r.name}: ${r.value.toFixed(r.decimals ?? 1)} ${r.unit}${budget}${goal}${peer}`);
  }
}
console.log(failed ? `\n${failed} figure(s) over budget or under goal` : '\nall figures within budget');
process.exit(failed ? 1 : 0);
