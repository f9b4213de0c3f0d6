import type { CalcMethod, State } from "./policy.ts";

/**
 * Boundary values for threshold T. `warning`/`critical` are the boundaries the value must not
 * cross: below T for `>`, above T for `<`, the upper edges for `=` (whose lower edges are in
 * `warningLow`/`criticalLow`). Computed as T·(100 ∓ pct)/100 so that whole-number inputs give
 * exact boundaries (T·(1 − 0.3) would give 7699.999… for the guide's 7700).
 */
export interface Boundaries {
  readonly warning: number;
  readonly critical: number;
  readonly warningLow: number | null;
  readonly criticalLow: number | null;
}

function below(threshold: number, pct: number): number {
  return (threshold * (100 - pct)) / 100;
}

function above(threshold: number, pct: number): number {
  return (threshold * (100 + pct)) / 100;
}

export function boundaries(calc: CalcMethod, threshold: number, warningPct: number, criticalPct: number): Boundaries {
  switch (calc) {
    case ">":
      return { warning: below(threshold, warningPct), critical: below(threshold, criticalPct), warningLow: null, criticalLow: null };
    case "<":
      return { warning: above(threshold, warningPct), critical: above(threshold, criticalPct), warningLow: null, criticalLow: null };
    case "=":
      return {
        warning: above(threshold, warningPct),
        critical: above(threshold, criticalPct),
        warningLow: below(threshold, warningPct),
        criticalLow: below(threshold, criticalPct),
      };
  }
}

/** Strict comparisons, as Bischeck: a value exactly on a boundary is not past it. */
export function classify(calc: CalcMethod, value: number, b: Boundaries): State {
  switch (calc) {
    case ">":
      return value < b.critical ? "CRITICAL" : value < b.warning ? "WARNING" : "OK";
    case "<":
      return value > b.critical ? "CRITICAL" : value > b.warning ? "WARNING" : "OK";
    case "=":
      if (value > b.critical || value < (b.criticalLow as number)) return "CRITICAL";
      return value > b.warning || value < (b.warningLow as number) ? "WARNING" : "OK";
  }
}

/** Up to ten significant digits, without float noise such as 9900.000000000002. */
export function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(10)));
}

/**
 * Bischeck-style text: `OK 12000 (11000 > W > 9900 > C > 7700)` for `>`,
 * `OK 9000 (10000 < W < 11000 < C < 13000)` for `<`,
 * `OK 10500 (10000 ± W 9000:11000 ± C 7000:13000)` for `=`, and `OK 12000 (NA)` without a threshold.
 */
export function explain(
  state: State,
  value: number | null,
  calc: CalcMethod | null,
  threshold: number | null,
  b: Boundaries | null,
): string {
  const v = value === null ? "null" : formatNumber(value);
  if (threshold === null || b === null || calc === null) return `${state} ${v} (NA)`;
  const t = formatNumber(threshold);
  const w = formatNumber(b.warning);
  const c = formatNumber(b.critical);
  switch (calc) {
    case ">":
      return `${state} ${v} (${t} > W > ${w} > C > ${c})`;
    case "<":
      return `${state} ${v} (${t} < W < ${w} < C < ${c})`;
    case "=":
      return `${state} ${v} (${t} ± W ${formatNumber(b.warningLow as number)}:${w} ± C ${formatNumber(b.criticalLow as number)}:${c})`;
  }
}
