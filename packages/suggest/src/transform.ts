import { quantileSorted, sortedCopy } from "./stats.ts";

/**
 * The scale a profile is fitted in. Counts and rates spread more when they are higher; in a
 * square-root or log scale their spread is nearly level-free, so one margin fits busy and quiet hours.
 */
export type Transform = { kind: "identity" } | { kind: "sqrt" } | { kind: "log"; offset: number };

export function forward(t: Transform, v: number): number {
  if (t.kind === "sqrt") return Math.sqrt(Math.max(0, v));
  if (t.kind === "log") return Math.log(Math.max(0, v) + t.offset);
  return v;
}

export function inverse(t: Transform, x: number): number {
  if (t.kind === "sqrt") return x <= 0 ? 0 : x * x;
  if (t.kind === "log") return Math.max(0, Math.exp(x) - t.offset);
  return x;
}

/**
 * The scale a metric is fitted in. Signed metrics as they are. Non-negative ones in log scale,
 * shifted by their median non-zero value so that zeros stay finite and values far under the usual
 * level do not dominate: real counts and rates are bursty (a quiet level with bursts many times
 * over it), and a spread measured in log scale does not mistake the usual level for the tail.
 * Mostly-zero metrics (at least half zeros) in square-root scale: their median non-zero value is a
 * burst, not a level.
 */
export function transformFor(values: readonly number[], nonNegative: boolean): Transform {
  if (!nonNegative) return { kind: "identity" };
  const positives = values.filter((v) => v > 0);
  if (positives.length <= values.length / 2) return { kind: "sqrt" };
  return { kind: "log", offset: quantileSorted(sortedCopy(positives), 0.5) };
}
