import type { CalcMethod } from "@tidemark/thresholds";
import {
  dateFacts,
  type HourEntry,
  type HourLevels,
  localTime,
  type Period,
  selectPeriod,
  type ThresholdPolicy,
} from "@tidemark/thresholds";
import { countAlerts, rateRange } from "./alerts.ts";
import { type Bounds, type DeclaredBounds, lineRange, resolveBounds } from "./bounds.ts";
import { fitMarginAndPersistence, folds, PERSISTENCE, type Persistence } from "./cross-validation.ts";
import { finish, type LineSpec, percentileZ, thresholdTable } from "./lines.ts";
import { fitProfile } from "./profile.ts";
import { roundSignificant, roundWithin } from "./round.ts";
import { coveredWeeks, type Observation, timed } from "./samples.ts";
import { chooseSeasonality, dayTypes, SEASONALITIES, type Seasonality, type Slot } from "./seasonality.ts";
import { quantileSorted, sortedCopy } from "./stats.ts";
import { type Transform, transformFor } from "./transform.ts";

const DAY = 86_400_000;

/** One row of the database's 5-minute or 1-hour aggregate; null where the bucket had no value. */
export interface AggregateBucket {
  readonly ts: number;
  readonly avg: number | null;
  readonly min: number | null;
  readonly max: number | null;
}

export interface SuggestInput {
  readonly policy: ThresholdPolicy;
  readonly periodIndex: number;
  /** 5-minute buckets, ascending: the results the alerts are counted on. */
  readonly fiveMinute: readonly AggregateBucket[];
  /** 1-hour buckets, ascending: the evidence for the seasonality (derived from the 5-minute ones when empty). */
  readonly hourly: readonly AggregateBucket[];
  /** Share of results to keep on the OK side before any margin, 0..100. */
  readonly percentile: number;
  /** Alert budget: at most this many alerts a week on data the fit has not seen. */
  readonly alertsPerWeek: number;
  /** Fixed persistence (the policy's maxSoft); null or absent: fitted. */
  readonly maxSoft?: number | null;
  /** Bounds declared for the item (e.g. 0..100 for a percentage); absent: detected from the history. */
  readonly bounds?: DeclaredBounds | null;
  /** The series key, a hint for detecting percentages. */
  readonly seriesKey?: string;
}

export interface ExpectedAlerts {
  /** Alerts a week the suggestion raised on the later part of the history, fitted without it. */
  readonly alertsPerWeek: number;
  /** 90 % range of that rate. */
  readonly low: number;
  readonly high: number;
  /** `later-part`: judged on history the fit did not see; `history`: too little history to hold any back. */
  readonly basis: "later-part" | "history";
}

export interface Suggestion {
  /** T[h] for the selected period (the envelope of the proposed periods when there are several); null = no check that hour. */
  readonly hours: (number | null)[];
  /** Per-hour warning/critical overrides where the period's levels would put a line outside the bounds. */
  readonly levels: HourLevels[];
  /** Samples each hour rests on. */
  readonly samples: number[];
  readonly seasonality: Seasonality;
  /** Held-back error of each seasonality candidate (null: not enough history to judge it). */
  readonly seasonalityErrors: Readonly<Record<Seasonality, number | null>>;
  /** The policy's periods with the selected one replaced by weekday/weekend or per-day periods; null when one period suffices. */
  readonly periods: Period[] | null;
  /** The scale the profile is fitted in: as is, square root (Poisson-like counts) or log (bursty ones). */
  readonly scale: Transform["kind"];
  /** Spreads added beyond the percentile. */
  readonly margin: number;
  /** Persistence: consecutive non-OK results before a state turns hard. */
  readonly maxSoft: number;
  readonly bounds: Bounds;
  /** Weeks (and days) of history with data, of the fitting part and of the checking part; rounded to three digits. */
  readonly history: { readonly weeks: number; readonly fitWeeks: number; readonly checkWeeks: number; readonly checkDays: number };
  readonly expected: ExpectedAlerts;
  /** Alerts a week while fitting (on the fitting part's own later stretch). */
  readonly fitAlertsPerWeek: number;
  readonly withinBudget: boolean;
  /** Why something was done on purpose: mostly-zero metric, clamped hours, short history. */
  readonly notes: string[];
}

/** Share of the history that fits; the rest checks. */
const FIT_SHARE = 0.7;
/** Less history than this is not split: nothing could be judged on what is left. */
const MIN_SPLIT_SPAN = 2 * DAY;

function slotOf(timeZone: string, ts: number): Slot {
  const t = localTime(timeZone, ts);
  return { dayOfWeek: dateFacts(t.year, t.month, t.day).dayOfWeek, hour: t.hour };
}

function sideOf(calc: CalcMethod, b: AggregateBucket): number | null {
  return calc === "<" ? b.max : calc === ">" ? b.min : b.avg;
}

/** Buckets of the selected period (holidays and other periods' days left out), nulls dropped. */
function observations(
  input: SuggestInput,
  buckets: readonly AggregateBucket[],
  side: (b: AggregateBucket) => number | null,
): Observation[] {
  const out: Observation[] = [];
  const only = input.policy.periods[0];
  const single = input.policy.periods.length === 1 && only !== undefined && isDefaultPeriod(only) && input.policy.holidays.length === 0;
  for (const b of buckets) {
    const v = side(b);
    if (v === null || !Number.isFinite(v)) continue;
    if (!single) {
      const sel = selectPeriod(input.policy, b.ts);
      if (sel.kind !== "period" || sel.index !== input.periodIndex) continue;
    }
    out.push({ ts: b.ts, value: v, slot: slotOf(input.policy.timeZone, b.ts) });
  }
  return out;
}

const DAY_TYPE_RULES: Record<Seasonality, number[][]> = {
  none: [[1, 2, 3, 4, 5, 6, 7]],
  "hour-of-day": [[1, 2, 3, 4, 5, 6, 7]],
  "weekday-weekend": [
    [2, 3, 4, 5, 6],
    [1, 7],
  ],
  "hour-of-week": [[1], [2], [3], [4], [5], [6], [7]],
};

function isDefaultPeriod(p: Period): boolean {
  return p.months.length === 0 && p.weeks.length === 0;
}

/**
 * Suggested thresholds for one period of a policy, from its item's 5-minute and hourly aggregates.
 * Pure: the caller loads the buckets.
 */
export function fitSuggestion(input: SuggestInput): Suggestion {
  const { policy, periodIndex } = input;
  const period = policy.periods[periodIndex];
  if (!period) throw new RangeError(`no period ${periodIndex}`);
  const calc = period.calcMethod;
  const notes: string[] = [];
  const obs = observations(input, input.fiveMinute, (b) => sideOf(calc, b));
  const hourlySource = input.hourly.length > 0 ? input.hourly : input.fiveMinute;
  const hourlyObs = observations(input, hourlySource, (b) => b.avg);
  const bounds = resolveBounds(
    obs.map((o) => o.value),
    input.bounds,
    input.seriesKey,
  );
  const typical = obs.length > 0 ? quantileSorted(sortedCopy(obs.map((o) => Math.abs(o.value))), 0.5) : 1;
  const spec: LineSpec = { calc, warning: period.warning, critical: period.critical, range: lineRange(bounds, typical) };
  // Non-negative metrics (counts, rates, percentages) spread with their level: fitted in log (or square-root) scale.
  const transform = transformFor(
    obs.map((o) => o.value),
    bounds.min !== null && bounds.min >= 0,
  );
  const persistence = input.maxSoft === null || input.maxSoft === undefined ? PERSISTENCE : [input.maxSoft];
  const weeks = coveredWeeks(obs);

  if (obs.length === 0) {
    return {
      hours: Array(24).fill(null),
      levels: Array(24).fill(null),
      samples: Array(24).fill(0),
      seasonality: "none",
      seasonalityErrors: Object.fromEntries(SEASONALITIES.map((s) => [s, null])) as Record<Seasonality, null>,
      periods: null,
      scale: "identity",
      margin: 0,
      maxSoft: persistence[0] ?? policy.maxSoft,
      bounds,
      history: { weeks: 0, fitWeeks: 0, checkWeeks: 0, checkDays: 0 },
      expected: { alertsPerWeek: 0, low: 0, high: 0, basis: "history" },
      fitAlertsPerWeek: 0,
      withinBudget: false,
      notes: ["no values in this period's history"],
    };
  }

  const first = (obs[0] as Observation).ts;
  const last = (obs.at(-1) as Observation).ts;
  const span = last - first;
  const canCheck = span >= MIN_SPLIT_SPAN;
  const checkFrom = canCheck ? first + FIT_SHARE * span : Number.POSITIVE_INFINITY;
  const fitPart = obs.filter((o) => o.ts < checkFrom);
  const checkPart = obs.filter((o) => o.ts >= checkFrom);

  const allowed = isDefaultPeriod(period) ? SEASONALITIES : (["none", "hour-of-day"] as const);
  const evidence = chooseSeasonality(hourlyObs, canCheck ? checkFrom : first + FIT_SHARE * span, allowed);
  const s = evidence.chosen;

  // The procedure (margin and persistence cross-validated over blocks of the data it
  // is given) is judged once on history it has not seen: fitted on the earlier part, checked on the later part.
  const procedure = (part: readonly Observation[]) =>
    fitMarginAndPersistence(folds(s, transform, part, policy.timeZone, calc, input.percentile), spec, input.alertsPerWeek, persistence);
  let expected: ExpectedAlerts;
  let fitted: Persistence;
  if (canCheck && checkPart.length > 0) {
    const early = procedure(fitPart);
    const profile = fitProfile(s, fitPart, transform);
    const z = percentileZ(profile, fitPart, calc, input.percentile) + early.margin;
    const alerts = countAlerts(timed(s, policy.timeZone, checkPart), thresholdTable(profile, z, spec), spec, early.maxSoft);
    const checkWeeks = coveredWeeks(checkPart);
    // The suggestion itself: the same procedure over the whole history, the latest weeks included.
    fitted = procedure(obs);
    // The range covers both what the later part showed and what the whole history's folds showed:
    // when the two disagree, the metric is drifting and the honest answer is the wider one.
    const held = rateRange(alerts, checkWeeks);
    const folded = rateRange(Math.round(fitted.rate * weeks), weeks);
    expected = {
      alertsPerWeek: alerts / checkWeeks,
      low: Math.min(held.low, folded.low),
      high: Math.max(held.high, folded.high),
      basis: "later-part",
    };
  } else {
    notes.push("less than two days of history: the expected alerts are measured on the history itself");
    fitted = procedure(obs);
    expected = { alertsPerWeek: fitted.rate, ...rateRange(Math.round(fitted.rate * weeks), weeks), basis: "history" };
  }

  const profile = fitProfile(s, obs, transform);
  const z = percentileZ(profile, obs, calc, input.percentile) + fitted.margin;
  const table = thresholdTable(profile, z, spec).map((t) => finish(t, spec, period));
  const zeros = obs.filter((o) => o.value === 0).length / obs.length;
  if (zeros >= 0.5) {
    notes.push(
      calc === ">"
        ? "mostly zero: hours whose lower line would sit at zero have no threshold"
        : `mostly zero (${Math.round(zeros * 100)} % of results): the line is set from the size of the non-zero results`,
    );
  }
  if (table.some((t) => t.levels !== null)) notes.push("critical level lowered in some hours to keep the critical line within the bounds");
  if (calc === ">" && table.some((t) => t.value === null))
    notes.push("hours without a threshold: a lower line there could never be crossed");

  const types = dayTypes(s);
  const hours: (number | null)[] = Array.from({ length: 24 }, (_, h) => {
    const values = Array.from({ length: types }, (_, t) => table[t * 24 + h]?.value ?? null);
    if (values.some((v) => v === null)) return null;
    const nums = values as number[];
    return calc === ">" ? Math.min(...nums) : calc === "<" ? Math.max(...nums) : (nums[0] as number);
  });
  const levels: HourLevels[] = Array.from({ length: 24 }, (_, h) => table[h]?.levels ?? null);
  const samples = Array.from({ length: 24 }, (_, h) => obs.filter((o) => o.slot.hour === h).length);

  let periods: Period[] | null = null;
  if (types > 1) {
    const proposed = DAY_TYPE_RULES[s].map(
      (days, t): Period => ({
        ...period,
        weeks: days.map((d) => ({ week: null, dayOfWeek: d })),
        hours: {
          entries: Array.from({ length: 24 }, (_, h): HourEntry => {
            const v = table[t * 24 + h]?.value ?? null;
            return v === null ? null : { kind: "constant", value: v };
          }),
          levels: Array.from({ length: 24 }, (_, h) => table[t * 24 + h]?.levels ?? null),
        },
      }),
    );
    periods = [...policy.periods.slice(0, periodIndex), ...proposed, ...policy.periods.slice(periodIndex + 1)];
    notes.push(
      s === "weekday-weekend"
        ? "weekdays and weekends differ: proposes a weekday and a weekend period"
        : "every day of the week differs: proposes one period per day",
    );
  }

  return {
    hours,
    levels,
    samples,
    seasonality: s,
    seasonalityErrors: evidence.errors,
    periods,
    scale: transform.kind,
    margin: fitted.margin,
    maxSoft: fitted.maxSoft,
    bounds,
    history: {
      weeks: roundSignificant(weeks),
      fitWeeks: roundSignificant(coveredWeeks(fitPart)),
      checkWeeks: roundSignificant(coveredWeeks(checkPart)),
      checkDays: roundSignificant(coveredWeeks(checkPart) * 7),
    },
    // Rates as a person states them (two digits), the range rounded outwards so it still holds.
    expected: {
      ...expected,
      alertsPerWeek: roundSignificant(expected.alertsPerWeek, 2),
      low: expected.low === 0 ? 0 : roundWithin(expected.low, expected.low, "down", 2),
      high: expected.high === 0 ? 0 : roundWithin(expected.high, expected.high, "up", 2),
    },
    fitAlertsPerWeek: roundSignificant(fitted.rate, 2),
    withinBudget: fitted.within && expected.low <= input.alertsPerWeek,
    notes,
  };
}
