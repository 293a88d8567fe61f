/** Summary figures of a distribution of non-negative numbers. */
export interface Distribution {
  count: number;
  mean: number;
  /** Median by nearest rank. */
  p50: number;
  /** 90th percentile by nearest rank. */
  p90: number;
  min: number;
  max: number;
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

/**
 * A histogram of integer values (lengths, steps), for means and nearest-rank percentiles in memory that grows
 * with the number of distinct values, not with the number of values.
 */
export class Histogram {
  private readonly counts = new Map<number, number>();
  private n = 0;
  private sum = 0;

  /** Counts one value. */
  add(value: number): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
    this.n++;
    this.sum += value;
  }

  /** The nearest-rank percentile (q in [0, 1]): the smallest value with at least q of the values at or below it. */
  percentile(q: number): number {
    if (this.n === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.n));
    let seen = 0;
    for (const [value, count] of [...this.counts].sort((a, b) => a[0] - b[0])) {
      seen += count;
      if (seen >= rank) return value;
    }
    return 0;
  }

  /** Count, mean, p50, p90, min and max. */
  summary(): Distribution {
    if (this.n === 0) return { count: 0, mean: 0, p50: 0, p90: 0, min: 0, max: 0 };
    let min = Infinity;
    let max = -Infinity;
    for (const k of this.counts.keys()) {
      if (k < min) min = k;
      if (k > max) max = k;
    }
    return {
      count: this.n,
      mean: round(this.sum / this.n, 2),
      p50: this.percentile(0.5),
      p90: this.percentile(0.9),
      min,
      max,
    };
  }

  /** Value -> count, in value order. */
  toRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, v] of [...this.counts].sort((a, b) => a[0] - b[0])) out[String(k)] = v;
    return out;
  }
}
