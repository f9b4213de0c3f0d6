import type { CalcMethod } from "@tidemark/thresholds";
import { countAlerts, type TimedSample } from "./alerts.ts";
import { type LineSpec, percentileZ, thresholdTable } from "./lines.ts";
import { fitProfile, type Profile } from "./profile.ts";
import { coveredWeeks, type Observation, timed } from "./samples.ts";
import type { Seasonality } from "./seasonality.ts";
import type { Transform } from "./transform.ts";

/**
 * Margin and persistence by cross-validation: contiguous blocks of the history, each judged by a
 * profile fitted without it, counting alerts the way the engine raises them.
 */

const DAY = 86_400_000;

/** Margins tried, in spreads beyond the percentile; the first that keeps the budget is taken. */
const MARGINS = [
  ...Array.from({ length: 16 }, (_, i) => i * 0.25),
  ...Array.from({ length: 34 }, (_, i) => Math.round(4 * 1.1 ** (i + 1) * 100) / 100),
];
/** Persistence candidates (maxSoft; 0 = hard on the first non-OK result, n = on the (n+1)-th in a row). */
export const PERSISTENCE = [0, 1, 2, 3, 4, 6];
/**
 * Spreads of line height one more required result is worth: longer persistence must buy a much
 * lower line, because it misses short incidents (spikes) that a single result would catch.
 */
const PERSISTENCE_COST = 4;
/**
 * Share of the budget the cross-validated fit aims at: new data drifts, and on real series a fit
 * exactly at the budget alerted more often on the weeks after it than on the weeks it saw.
 */
const BUDGET_SAFETY = 0.6;
/**
 * The folds may always show one alert: on a few days of history "under the budget" would otherwise
 * mean "above every value seen", and a line fitted to clear the single largest held-out value lands
 * far above anything plausible.
 */
const MIN_ALLOWED_ALERTS = 1;
/**
 * Where the budget allows less than one alert in the whole history (under about 1.7 weeks of it), the
 * margin goes on past the last-but-one alert along the tail the folds show: from the margin with at
 * most this many alerts to the one with at most one, the count falls by a rate that says how far
 * the line must rise for the budget's fraction of an alert.
 */
const TAIL_COUNT = 8;
/** Blocks of the fitting part for cross-validating the margin. */
const FOLDS = 7;

export interface Persistence {
  readonly maxSoft: number;
  readonly margin: number;
  readonly rate: number;
  readonly within: boolean;
}

/** One cross-validation fold: the profile fitted without a block of the history, and that block to judge it on. */
interface Fold {
  readonly profile: Profile;
  readonly z0: number;
  readonly judge: readonly TimedSample[];
}

/** Contiguous blocks of the fitting part, at most FOLDS, at least a day each: every stretch judged by a profile that never saw it. */
export function folds(
  s: Seasonality,
  transform: Transform,
  obs: readonly Observation[],
  timeZone: string,
  calc: CalcMethod,
  percentile: number,
): Fold[] {
  const first = obs[0]?.ts ?? 0;
  const span = (obs.at(-1)?.ts ?? first) - first;
  const k = Math.max(1, Math.min(FOLDS, Math.floor(span / DAY)));
  if (k === 1) {
    const profile = fitProfile(s, obs, transform);
    return [{ profile, z0: percentileZ(profile, obs, calc, percentile), judge: timed(s, timeZone, obs) }];
  }
  const blockOf = (o: Observation) => Math.min(k - 1, Math.floor(((o.ts - first) / (span + 1)) * k));
  return Array.from({ length: k }, (_, b) => {
    const train = obs.filter((o) => blockOf(o) !== b);
    const profile = fitProfile(s, train, transform);
    return {
      profile,
      z0: percentileZ(profile, train, calc, percentile),
      judge: timed(
        s,
        timeZone,
        obs.filter((o) => blockOf(o) === b),
      ),
    };
  });
}

/** For each persistence, the smallest margin that keeps the folds' alerts a week within the budget; then the best trade. */
export function fitMarginAndPersistence(fs: readonly Fold[], spec: LineSpec, budget: number, persistence: readonly number[]): Persistence {
  const weeks = fs.reduce((a, f) => a + coveredWeeks(f.judge), 0);
  const span = Math.max(weeks, 1 / 7);
  const target = budget * BUDGET_SAFETY * span;
  const allowed = Math.max(MIN_ALLOWED_ALERTS, target);
  const count = (margin: number, maxSoft: number, stopAfter: number) => {
    let alerts = 0;
    for (const f of fs) {
      if (alerts > stopAfter) break;
      alerts += countAlerts(f.judge, thresholdTable(f.profile, f.z0 + margin, spec), spec, maxSoft, stopAfter - alerts);
    }
    return alerts;
  };
  let best: (Persistence & { score: number }) | null = null;
  for (const maxSoft of persistence) {
    let chosen: Persistence | null = null;
    let steep: { margin: number; alerts: number } | null = null;
    for (const margin of spec.calc === "=" ? [0] : MARGINS) {
      const alerts = count(margin, maxSoft, target < allowed ? Math.max(allowed, TAIL_COUNT) : allowed);
      if (steep === null && alerts <= TAIL_COUNT) steep = { margin, alerts };
      chosen = { maxSoft, margin, rate: alerts / span, within: alerts <= allowed };
      if (chosen.within) break;
    }
    if (!chosen) continue;
    if (chosen.within && target < allowed && steep !== null && steep.margin < chosen.margin && steep.alerts > 0) {
      const alertsAtChosen = Math.max(chosen.rate * span, 0.5);
      const decay = Math.log(steep.alerts / alertsAtChosen) / (chosen.margin - steep.margin);
      if (decay > 0) {
        const extra = Math.min(Math.log(alertsAtChosen / target) / decay, chosen.margin - steep.margin);
        chosen = { ...chosen, margin: Math.round((chosen.margin + extra) * 100) / 100, rate: target / span };
      }
    }
    const score = (chosen.within ? 0 : 1e6) + chosen.margin + PERSISTENCE_COST * maxSoft;
    if (best === null || score < best.score) best = { ...chosen, score };
  }
  return best ?? { maxSoft: persistence[0] ?? 3, margin: 0, rate: 0, within: true };
}
