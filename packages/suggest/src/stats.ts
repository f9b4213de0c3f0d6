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

export function median(values: ArrayLike<number>): number {
  return quantileSorted(sortedCopy(values), 0.5);
}

/** Median absolute deviation from `center`, scaled to σ for normal data (× 1.4826). */
export function mad(values: ArrayLike<number>, center: number): number {
  const deviations = Float64Array.from(values, (v) => Math.abs(v - center));
  return 1.4826 * median(deviations);
}
