/** One class of the choropleth: counts from `lo` to `hi` inclusive. */
export interface ChoroplethClass {
  lo: number;
  hi: number;
}

/**
 * Up to `max` classes (quantiles of the departments that have leads, so each class holds about
 * as many departments), whole numbers, never overlapping; fewer when there are fewer distinct
 * counts. Departments without leads are the 'no lead' swatch, outside the classes.
 */
export function choroplethClasses(counts: readonly number[], max = 6): ChoroplethClass[] {
  const values = counts.filter((v) => v > 0).sort((a, b) => a - b);
  if (values.length === 0) return [];
  const distinct = [...new Set(values)];
  if (distinct.length <= max) return distinct.map((lo, i) => ({ lo, hi: i + 1 < distinct.length ? distinct[i + 1] - 1 : lo }));
  const k = max;
  const classes: ChoroplethClass[] = [];
  let lo = values[0];
  for (let i = 1; i <= k; i++) {
    const hi = i === k ? values[values.length - 1] : values[Math.min(values.length - 1, Math.ceil((i * values.length) / k) - 1)];
    if (hi < lo) continue;
    classes.push({ lo, hi });
    lo = hi + 1;
    if (lo > values[values.length - 1]) break;
  }
  return classes;
}

/** The class index of a count, or -1 for no lead. */
export function classOf(value: number, classes: readonly ChoroplethClass[]): number {
  if (value <= 0) return -1;
  const i = classes.findIndex((c) => value <= c.hi);
  return i < 0 ? classes.length - 1 : i;
}
