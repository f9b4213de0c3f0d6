import type { CalcMethod, HourLevels, Period } from "@tidemark/thresholds";
import { type Profile, type Sample, standardised } from "./profile.ts";
import { roundSignificant, roundWithin } from "./round.ts";
import { dayTypes } from "./seasonality.ts";
import { quantileSorted, sortedCopy } from "./stats.ts";
import { inverse } from "./transform.ts";

/** From a profile and a number of spreads to threshold values T, and from T to what is saved. */

export interface LineSpec {
  readonly calc: CalcMethod;
  readonly warning: number;
  readonly critical: number;
  readonly range: { lo: number; hi: number };
}

/** Threshold table (T per table index) for `z` spreads from the profile's levels; null where no line could fire. */
export function thresholdTable(profile: Profile, z: number, spec: LineSpec): (number | null)[] {
  const s = profile.seasonality;
  return Array.from({ length: dayTypes(s) * 24 }, (_, idx) => {
    const cell = s === "none" ? 0 : idx;
    const level = profile.level[cell] as number;
    const spread = profile.spread[cell] as number;
    const { lo, hi } = spec.range;
    if (spec.calc === "=") return Math.min(hi, Math.max(lo, inverse(profile.transform, level)));
    if (spec.calc === "<") {
      const line = Math.min(hi, Math.max(lo, inverse(profile.transform, level + z * spread)));
      return (line * 100) / (100 + spec.warning);
    }
    const line = inverse(profile.transform, level - z * spread);
    // A lower line at or below the lowest possible value never fires: no check that hour, on purpose.
    if (line < lo) return null;
    return (Math.min(hi, line) * 100) / (100 - Math.min(spec.warning, 99));
  });
}

/** z of the percentile: how many spreads from the level keep `percentile` % of the results OK. */
export function percentileZ(profile: Profile, obs: readonly Sample[], calc: CalcMethod, percentile: number): number {
  if (calc === "=" || obs.length === 0) return 0;
  const z = sortedCopy(standardised(profile, obs));
  return calc === "<" ? Math.max(0, quantileSorted(z, percentile / 100)) : Math.max(0, -quantileSorted(z, 1 - percentile / 100));
}

/** Rounded threshold and, where needed, per-hour levels that keep the critical line inside the bounds too. */
export function finish(t: number | null, spec: LineSpec, period: Period): { value: number | null; levels: HourLevels } {
  if (t === null || !Number.isFinite(t)) return { value: null, levels: null };
  const { lo, hi } = spec.range;
  let value: number;
  if (spec.calc === "<") value = t > 0 ? roundWithin(t, (hi * 100) / (100 + spec.warning), "down") : roundSignificant(t);
  else if (spec.calc === ">") value = t > 0 ? roundWithin(t, (lo * 100) / (100 - Math.min(spec.warning, 99)), "up") : roundSignificant(t);
  else value = roundSignificant(t);
  if (value <= 0) return { value, levels: null };
  // The critical line lies further out than the warning line; pull it in (never past the warning) when it would leave the bounds.
  if (spec.calc === "<" && Number.isFinite(hi) && (value * (100 + period.critical)) / 100 > hi) {
    const critical = Math.max(period.warning, Math.floor(((hi / value) * 100 - 100) * 10) / 10);
    return { value, levels: { warning: period.warning, critical } };
  }
  if (spec.calc === ">" && Number.isFinite(lo) && (value * (100 - period.critical)) / 100 < lo) {
    const critical = Math.max(period.warning, Math.floor((100 - (lo / value) * 100) * 10) / 10);
    return { value, levels: { warning: period.warning, critical } };
  }
  return { value, levels: null };
}
