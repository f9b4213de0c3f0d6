/**
 * Physical bounds of a metric: percentages live in 0–100, counts and rates never go below 0. A
 * line outside them can never fire (a warning at 120 % CPU) or always fires; suggestions keep
 * every line strictly inside.
 */
export interface Bounds {
  readonly min: number | null;
  readonly max: number | null;
  /** `declared` by the caller (the item's kind), `detected` from the history, or `none`. */
  readonly source: "declared" | "detected" | "none";
}

export interface DeclaredBounds {
  readonly min?: number | null;
  readonly max?: number | null;
}

/** Series keys that name a percentage (cpu, util, pct, percent, %). */
const PERCENT_KEY = /(cpu|util|pct|percent|%)/i;

/**
 * Declared bounds win; otherwise a history that never went below 0 is taken as non-negative, and a
 * non-negative history that stays within 100 under a percentage-like key as a percentage.
 */
export function resolveBounds(values: ArrayLike<number>, declared?: DeclaredBounds | null, seriesKey?: string): Bounds {
  if (declared && (declared.min !== undefined || declared.max !== undefined)) {
    return { min: declared.min ?? null, max: declared.max ?? null, source: "declared" };
  }
  if (values.length === 0) return { min: null, max: null, source: "none" };
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo < 0) return { min: null, max: null, source: "none" };
  const percent = hi <= 100 && seriesKey !== undefined && PERCENT_KEY.test(seriesKey);
  return { min: 0, max: percent ? 100 : null, source: "detected" };
}

/**
 * The range a line may take: strictly inside the bounds, one hundredth of the bounded range (or of
 * the bound's magnitude) away from each, so that a value can cross it and a value can stay clear of it.
 */
export function lineRange(bounds: Bounds, typical: number): { lo: number; hi: number } {
  const width =
    bounds.min !== null && bounds.max !== null
      ? bounds.max - bounds.min
      : Math.max(Math.abs(bounds.max ?? bounds.min ?? 0), Math.abs(typical), 1e-9);
  const gap = width / 100;
  return {
    lo: bounds.min === null ? Number.NEGATIVE_INFINITY : bounds.min + gap,
    hi: bounds.max === null ? Number.POSITIVE_INFINITY : bounds.max - gap,
  };
}
