/**
 * Numbers as a person writes them: a few significant digits, parsed back from their decimal text so
 * that 84.60000000000001 never reaches a saved threshold. (The dashboard's one number format for
 * display is `apps/web/src/lib/format.ts`.)
 */

/** `v` rounded to `digits` significant digits (default 3): 84.60000000000001 → 84.6, 1234.5 → 1230. */
export function roundSignificant(v: number, digits = 3): number {
  if (v === 0 || !Number.isFinite(v)) return v;
  return Number(v.toPrecision(digits));
}

/**
 * Like roundSignificant, but never past `limit` in the given direction: a line that must stay at
 * or below a bound (`"down"`) or at or above one (`"up"`) is rounded to the nearest value on the
 * permitted side, stepping one unit of the last digit when plain rounding would cross it.
 */
export function roundWithin(v: number, limit: number, direction: "down" | "up", digits = 3): number {
  const r = roundSignificant(v, digits);
  if (direction === "down" ? r <= limit : r >= limit) return r;
  const magnitude = Math.floor(Math.log10(Math.abs(v))) - (digits - 1);
  const step = 10 ** magnitude;
  const stepped = direction === "down" ? Math.floor(v / step) * step : Math.ceil(v / step) * step;
  return Number(stepped.toPrecision(digits + 1));
}
