import { poison } from "./runtime.ts";
import type { SeriesData } from "./series-data.ts";

const BUCKET_MS: Readonly<Record<string, number>> = { H: 3_600_000, D: 86_400_000, W: 7 * 86_400_000 };
const OFFSET = /^-(\d+) *([SMHD])$/;
const UNIT_S: Readonly<Record<string, number>> = { S: 1, M: 60, H: 3600, D: 86_400 };

export interface RegressionArgs {
  readonly series: string;
  /** AVG, MAX or MIN (any other text is AVG, as in Bischeck). */
  readonly method: string;
  /** H, D or W. */
  readonly resolution: string;
  /** Buckets after the newest to forecast; the text as written. */
  readonly forecast: string;
  /** `-30D` (back from the newest point) or END (the whole history). */
  readonly offset: string;
}

/**
 * Bischeck's CalculateOLS: the series (from its newest point back to `offset`, or all of it) is
 * cut into buckets of an hour, day or week starting at the oldest point's hour or day (UTC here;
 * the JVM's zone there), each bucket reduced by AVG/MAX/MIN, and a least-squares line fitted
 * over bucket number → value. Returns the line's value `forecast` buckets past the last bucket.
 * Anything Bischeck rejects (forecast < 1, another resolution, no data, fewer than two buckets
 * with data) makes the expression null.
 */
export function ordinaryLeastSquares(data: SeriesData, args: RegressionArgs): number {
  const forecast = /^[+-]?\d+$/.test(args.forecast.trim()) ? Number(args.forecast.trim()) : Number.NaN;
  if (!(forecast >= 1)) poison();
  const bucket = BUCKET_MS[args.resolution.toUpperCase()];
  if (bucket === undefined) poison();
  if (data.pointsByIndexRange === undefined || data.indexAt === undefined) poison();
  let last = Number.MAX_SAFE_INTEGER;
  if (args.offset.toUpperCase() !== "END") {
    const m = OFFSET.exec(args.offset.trim());
    const newest = data.pointsByIndexRange(args.series, 0, 0);
    if (m === null || newest.ts.length === 0) poison();
    const back = Number(m[1]) * (UNIT_S[m[2] as string] as number) * 1000;
    last = data.indexAt(args.series, (newest.ts[0] as number) - back) ?? Number.MAX_SAFE_INTEGER;
  }
  const { ts, values } = data.pointsByIndexRange(args.series, 0, last);
  if (ts.length === 0) poison();
  const newestTs = ts[0] as number;
  const oldestTs = ts[ts.length - 1] as number;
  const size = Math.ceil((newestTs - oldestTs) / bucket) + 1;
  const start = bucket === BUCKET_MS.H ? oldestTs - (oldestTs % 3_600_000) : oldestTs - (oldestTs % 86_400_000);
  const sums = new Float64Array(size);
  const counts = new Float64Array(size);
  const maxes = new Float64Array(size).fill(0);
  const mins = new Float64Array(size).fill(Number.MAX_VALUE);
  for (let i = 0; i < ts.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const b = Math.trunc(((ts[i] as number) - start) / bucket);
    if (b >= size) poison();
    sums[b] = (sums[b] as number) + v;
    counts[b] = (counts[b] as number) + 1;
    if (v > (maxes[b] as number)) maxes[b] = v;
    if (v < (mins[b] as number)) mins[b] = v;
  }
  const method = args.method.toUpperCase();
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (let x = 0; x < size; x++) {
    const count = counts[x] as number;
    if (count === 0) continue;
    const y = method === "MAX" ? (maxes[x] as number) : method === "MIN" ? (mins[x] as number) : (sums[x] as number) / count;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  // Apache commons-math SimpleRegression: fewer than two points give NaN.
  if (n < 2) poison();
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const intercept = (sy - slope * sx) / n;
  return intercept + slope * (size + forecast);
}
