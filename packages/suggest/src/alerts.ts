import { boundaries, type CalcMethod, classify, INITIAL_HARD_STATE, nextHardState } from "@tidemark/thresholds";

/**
 * Alerts a line would have raised: each sample is one check result, judged against a threshold
 * interpolated between its hour and the next (as the engine does), with the soft/hard rules of
 * `maxSoft`. Counting uses the engine's own classify and nextHardState so the fit promises what
 * the worker will do.
 */
export interface TimedSample {
  readonly ts: number;
  readonly value: number;
  /** Index of the sample's hour in a threshold table, the next hour's, and the minute fraction between them. */
  readonly cell: number;
  readonly nextCell: number;
  readonly fraction: number;
}

export interface Levels {
  readonly calc: CalcMethod;
  readonly warning: number;
  readonly critical: number;
}

/**
 * Alerts opened (hard state leaving OK) by threshold table `thresholds` (null = no check that hour)
 * over `samples`; counting stops once it passes `stopAfter` (a fit only needs to know it is over).
 */
export function countAlerts(
  samples: readonly TimedSample[],
  thresholds: ArrayLike<number | null>,
  levels: Levels,
  maxSoft: number,
  stopAfter = Number.POSITIVE_INFINITY,
): number {
  let track = INITIAL_HARD_STATE;
  let alerts = 0;
  for (const s of samples) {
    const a = thresholds[s.cell];
    const b = thresholds[s.nextCell];
    let state: "OK" | "WARNING" | "CRITICAL" = "OK";
    if (a !== null && a !== undefined && b !== null && b !== undefined && Number.isFinite(a) && Number.isFinite(b)) {
      const t = a + s.fraction * (b - a);
      state = classify(levels.calc, s.value, boundaries(levels.calc, t, levels.warning, levels.critical)) as typeof state;
    }
    // OK after a settled OK changes nothing that matters (only a count no later step reads).
    if (state === "OK" && track.state === "OK" && track.hardState === "OK") continue;
    const step = nextHardState(track, state, maxSoft);
    if (step.hardChanged && step.hardState !== "OK" && track.hardState === "OK" && ++alerts > stopAfter) return alerts;
    track = step;
  }
  return alerts;
}

/**
 * A 90 % interval for a weekly rate from `count` events in `weeks` weeks (Poisson, Wilson–Hilferty
 * approximation of the exact Garwood bounds): what the next weeks may honestly show.
 */
export function rateRange(count: number, weeks: number): { low: number; high: number } {
  if (weeks <= 0) return { low: 0, high: Number.POSITIVE_INFINITY };
  const z = 1.645;
  const lower = (k: number) => (k === 0 ? 0 : k * (1 - 1 / (9 * k) - z / (3 * Math.sqrt(k))) ** 3);
  const upper = (k: number) => (k + 1) * (1 - 1 / (9 * (k + 1)) + z / (3 * Math.sqrt(k + 1))) ** 3;
  return { low: Math.max(0, lower(count)) / weeks, high: upper(count) / weeks };
}
