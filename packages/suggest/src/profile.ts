import { cellCount, cellOf, levelCell, type Seasonality, type Slot } from "./seasonality.ts";
import { mad, median } from "./stats.ts";
import { forward, type Transform } from "./transform.ts";

/**
 * A robust seasonal profile: per cell a level (median) and a spread (MAD of the residuals), so that
 * a line is `level + z · spread`. Levels come from the cell's own samples, pooled towards the hour
 * of day (or the whole series) where a cell has few; spreads are smoothed across neighbouring hours
 * and pooled towards the series' overall spread, because tails are what few samples estimate worst.
 */
export interface Profile {
  readonly seasonality: Seasonality;
  readonly transform: Transform;
  readonly level: Float64Array;
  readonly spread: Float64Array;
  /** Samples each cell's own level rests on. */
  readonly samples: Int32Array;
  /** The series' overall spread (MAD of all residuals, or a fallback for mostly-constant series). */
  readonly overallSpread: number;
}

export interface Sample {
  readonly slot: Slot;
  readonly value: number;
}

/** Pseudo-samples of the parent estimate mixed into every cell: weightless for a full cell, dominant for a nearly empty one. */
const LEVEL_POOL = 6;
const SPREAD_POOL = 24;
/** A cell's spread is never below this share of the overall spread: one calm hour must not make a hair trigger. */
const MIN_SPREAD_SHARE = 0.25;

function weightedLevel(own: number[], parent: number): number {
  if (own.length === 0) return parent;
  return (own.length * median(own) + LEVEL_POOL * parent) / (own.length + LEVEL_POOL);
}

/**
 * The spread when the MAD says nothing. Mostly-zero metrics (idle counters, error counts) are
 * measured by the size of their non-zero results, so a line sits a few "typical bursts" above zero
 * rather than a hair above it; flat gauges fall back to the mean absolute residual, then 1 % of the
 * typical magnitude, so a line always sits some distance from the usual value.
 */
function fallbackSpread(residuals: readonly number[], values: readonly number[]): number {
  const m = mad(residuals, median(residuals));
  const zeros = values.filter((v) => v === 0).length;
  if (zeros >= values.length / 2 && zeros < values.length) {
    const nonZero = values.filter((v) => v !== 0).map(Math.abs);
    return Math.max(m, median(nonZero));
  }
  if (m > 0) return m;
  const meanAbs = residuals.reduce((a, r) => a + Math.abs(r), 0) / Math.max(1, residuals.length);
  if (meanAbs > 0) return meanAbs;
  const magnitude = values.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
  return magnitude > 0 ? magnitude * 0.01 : 1e-9;
}

/** Neighbouring cells of `cell`: the hours before and after within the same day type (across days for hour-of-week). */
function neighbours(s: Seasonality, cell: number): number[] {
  if (s === "none") return [];
  const n = cellCount(s);
  if (s === "hour-of-week") return [(cell + n - 1) % n, (cell + 1) % n];
  const base = cell - (cell % 24);
  return [base + ((cell + 23) % 24), base + ((cell + 1) % 24)];
}

export function fitProfile(s: Seasonality, samples: readonly Sample[], transform: Transform = { kind: "identity" }): Profile {
  const n = cellCount(s);
  const values = samples.map((x) => forward(transform, x.value));
  const overall = values.length > 0 ? median(values) : 0;
  const byHour: number[][] = Array.from({ length: 24 }, () => []);
  const byCell: number[][] = Array.from({ length: n }, () => []);
  const cellOfSample = samples.map((x) => levelCell(s, cellOf(s, x.slot)));
  samples.forEach((x, i) => {
    byHour[x.slot.hour]?.push(values[i] as number);
    byCell[cellOfSample[i] as number]?.push(values[i] as number);
  });
  const hourLevel = byHour.map((v) => weightedLevel(v, overall));
  const level = Float64Array.from({ length: n }, (_, cell) => {
    const own = byCell[levelCell(s, cell)] as number[];
    const parent = s === "none" || s === "hour-of-day" ? overall : (hourLevel[cell % 24] as number);
    return weightedLevel(own, parent);
  });
  const residuals = samples.map((_, i) => (values[i] as number) - (level[cellOfSample[i] as number] as number));
  const overallSpread = fallbackSpread(residuals, values);
  const residualsByCell: number[][] = Array.from({ length: n }, () => []);
  residuals.forEach((r, i) => {
    residualsByCell[cellOfSample[i] as number]?.push(r);
  });
  const spread = Float64Array.from({ length: n }, (_, cell) => {
    const own = levelCell(s, cell);
    const window = [own, ...neighbours(s, own)].flatMap((c) => residualsByCell[c] ?? []);
    const local = window.length > 0 ? mad(window, median(window)) : overallSpread;
    const pooled = Math.sqrt((window.length * local * local + SPREAD_POOL * overallSpread * overallSpread) / (window.length + SPREAD_POOL));
    return Math.max(pooled, MIN_SPREAD_SHARE * overallSpread);
  });
  const counts = Int32Array.from({ length: n }, (_, cell) => byCell[levelCell(s, cell)]?.length ?? 0);
  return { seasonality: s, transform, level, spread, samples: counts, overallSpread };
}

/** Residuals in spreads: how far each sample sits from its cell's level, in that cell's spread. */
export function standardised(profile: Profile, samples: readonly Sample[]): Float64Array {
  return Float64Array.from(samples, (x) => {
    const cell = levelCell(profile.seasonality, cellOf(profile.seasonality, x.slot));
    return (forward(profile.transform, x.value) - (profile.level[cell] as number)) / (profile.spread[cell] as number);
  });
}
