import { median } from "./stats.ts";

/**
 * The seasonal shapes a suggestion can take, simplest first. Each maps a local (day of week, hour)
 * to a cell; a profile holds one level per cell.
 */
export const SEASONALITIES = ["none", "hour-of-day", "weekday-weekend", "hour-of-week"] as const;
export type Seasonality = (typeof SEASONALITIES)[number];

/** Local day of week (1 = Sunday … 7 = Saturday, as Bischeck) and hour of one sample. */
export interface Slot {
  readonly dayOfWeek: number;
  readonly hour: number;
}

/** How many day types a seasonality distinguishes (1, 2 or 7); each has 24 hours, except `none`. */
export function dayTypes(s: Seasonality): number {
  return s === "weekday-weekend" ? 2 : s === "hour-of-week" ? 7 : 1;
}

export function dayTypeOf(s: Seasonality, dayOfWeek: number): number {
  if (s === "weekday-weekend") return dayOfWeek === 1 || dayOfWeek === 7 ? 1 : 0;
  if (s === "hour-of-week") return dayOfWeek - 1;
  return 0;
}

/** Cells are (day type, hour) → dayType·24 + hour; `none` keeps 24 cells that all share one level. */
export function cellOf(s: Seasonality, slot: Slot): number {
  return dayTypeOf(s, slot.dayOfWeek) * 24 + (s === "none" ? 0 : slot.hour);
}

export function cellCount(s: Seasonality): number {
  return dayTypes(s) * 24;
}

/** The cell a `none` profile reads for every hour, and the others read for their own hour. */
export function levelCell(s: Seasonality, cell: number): number {
  return s === "none" ? 0 : cell;
}

export interface SeasonalityEvidence {
  readonly chosen: Seasonality;
  /** Mean absolute error of each candidate's per-cell median, fitted before `split` and judged after; null when not judged. */
  readonly errors: Readonly<Record<Seasonality, number | null>>;
}

interface Observation {
  readonly ts: number;
  readonly slot: Slot;
  readonly value: number;
}

const DAY = 86_400_000;

/** Whether the fitting part holds enough of every day type for a candidate to be worth judging. */
function supported(s: Seasonality, fit: readonly Observation[]): boolean {
  if (s === "none" || s === "hour-of-day") return fit.length > 0;
  const days = new Map<number, Set<number>>();
  for (const o of fit) {
    const t = dayTypeOf(s, o.slot.dayOfWeek);
    const set = days.get(t) ?? new Set<number>();
    set.add(Math.floor(o.ts / DAY));
    days.set(t, set);
  }
  // Two days of each day type at least: one day cannot tell a weekly pattern from a one-off.
  for (let t = 0; t < dayTypes(s); t++) if ((days.get(t)?.size ?? 0) < 2) return false;
  return true;
}

/** Per-cell medians of `fit`; an empty cell falls back to the hour-of-day median, then the overall one. */
function cellMedians(s: Seasonality, fit: readonly Observation[]): Float64Array {
  const all = median(fit.map((o) => o.value));
  const byHour: number[][] = Array.from({ length: 24 }, () => []);
  for (const o of fit) byHour[o.slot.hour]?.push(o.value);
  const hourMedian = byHour.map((v) => (v.length > 0 ? median(v) : all));
  const cells: number[][] = Array.from({ length: cellCount(s) }, () => []);
  for (const o of fit) cells[cellOf(s, o.slot)]?.push(o.value);
  return Float64Array.from(cells, (v, cell) => (v.length > 0 ? median(v) : s === "none" ? all : (hourMedian[cell % 24] as number)));
}

/**
 * Seasonality chosen by evidence: each candidate's per-cell median over the observations before
 * `split` predicts those after it; the simplest candidate within 5 % of the best error wins, so a
 * richer shape must earn its place on data it has not seen.
 */
export function chooseSeasonality(
  observations: readonly Observation[],
  split: number,
  allowed: readonly Seasonality[] = SEASONALITIES,
): SeasonalityEvidence {
  const fit = observations.filter((o) => o.ts < split);
  const check = observations.filter((o) => o.ts >= split);
  const errors = Object.fromEntries(SEASONALITIES.map((s) => [s, null])) as Record<Seasonality, number | null>;
  if (fit.length === 0 || check.length === 0) return { chosen: allowed.includes("hour-of-day") ? "hour-of-day" : "none", errors };
  for (const s of allowed) {
    if (!supported(s, fit)) continue;
    const medians = cellMedians(s, fit);
    let sum = 0;
    for (const o of check) sum += Math.abs(o.value - (medians[cellOf(s, o.slot)] as number));
    errors[s] = sum / check.length;
  }
  const judged = SEASONALITIES.filter((s) => errors[s] !== null);
  const best = Math.min(...judged.map((s) => errors[s] as number));
  const chosen = judged.find((s) => (errors[s] as number) <= best * 1.05 + 1e-12) ?? "none";
  return { chosen, errors };
}
