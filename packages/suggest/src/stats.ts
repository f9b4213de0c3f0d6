/** Robust statistics over plain arrays; inputs are never mutated. */

/** Quantile of an ascending array (linear interpolation between order statistics); NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const rank = Math.min(1, Math.max(0, q)) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(n - 1, lo + 1);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (rank - lo);
}

export function sortedCopy(values: ArrayLike<number>): Float64Array {
  return Float64Array.from(values).sort();
}

/** Rearranges `a` so that a[k] is its k-th smallest value (Hoare's selection); returns it. */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k] as number;
}

/** Median in linear time (profiles take thousands of them); the mean of the middle two for an even count. */
export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const a = Float64Array.from(values);
  const mid = n >> 1;
  const upper = select(a, mid);
  if (n % 2 === 1) return upper;
  let lower = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < mid; i++) if ((a[i] as number) > lower) lower = a[i] as number;
  return (lower + upper) / 2;
}

/** Median absolute deviation from `center`, scaled to σ for normal data (× 1.4826). */
export function mad(values: ArrayLike<number>, center: number): number {
  const deviations = Float64Array.from(values, (v) => Math.abs(v - center));
  return 1.4826 * median(deviations);
}
