/**
 * Deterministic synthetic metrics with the shapes operations teams see: a daily cycle, a
 * quieter weekend, noise, and a few incidents (spikes and drops) at known times, so that
 * threshold previews have something true to show.
 */

export interface SeriesShape {
  /** Level at the quietest hour. */
  base: number;
  /** Added at the daily peak (around 14:00 UTC). */
  dailyAmplitude: number;
  /** Multiplier applied on Saturday and Sunday. */
  weekendFactor: number;
  /** Relative noise (0.05 = ±5 %). */
  noise: number;
  /** Incidents: multiplier applied during [start, start + minutes). */
  incidents: { start: number; minutes: number; factor: number }[];
}

/** mulberry32: small, fast, good enough for reproducible demo noise. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The shape's weekday level at `hour` (UTC, fractional): peak mid-afternoon, trough before dawn. */
export function dailyLevel(shape: Pick<SeriesShape, "base" | "dailyAmplitude">, hour: number): number {
  return shape.base + shape.dailyAmplitude * ((1 - Math.cos(((hour - 2) / 24) * 2 * Math.PI)) / 2);
}

export function valueAt(shape: SeriesShape, ts: number, random: () => number): number {
  const date = new Date(ts);
  const weekday = date.getUTCDay();
  const weekend = weekday === 0 || weekday === 6 ? shape.weekendFactor : 1;
  let value = dailyLevel(shape, date.getUTCHours() + date.getUTCMinutes() / 60) * weekend;
  value *= 1 + (random() * 2 - 1) * shape.noise;
  for (const incident of shape.incidents) {
    if (ts >= incident.start && ts < incident.start + incident.minutes * 60_000) value *= incident.factor;
  }
  return Math.round(value * 100) / 100;
}

export function* generatePoints(
  shape: SeriesShape,
  opts: { from: number; to: number; stepMs: number; seed: number },
): Generator<{ ts: number; value: number }> {
  const random = prng(opts.seed);
  for (let ts = opts.from; ts < opts.to; ts += opts.stepMs) yield { ts, value: valueAt(shape, ts, random) };
}
