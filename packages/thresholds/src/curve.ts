import { dateFacts, localTime } from "./calendar.ts";
import { HOUR_MS, type HourValue, hourSpan, hourValue, interpolate, policyContext, spanReadsTime, type ThresholdContext } from "./hours.ts";
import { type PeriodSelection, selectPeriodForDate } from "./period.ts";
import type { ThresholdPolicy } from "./policy.ts";
import { boundaries } from "./states.ts";

export interface CurveInput {
  /** First timestamp (epoch ms), included. */
  readonly from: number;
  /** Last timestamp, included when it falls on a step. */
  readonly to: number;
  /** Milliseconds between points. */
  readonly step: number;
  readonly context?: ThresholdContext;
}

/** Column arrays, one entry per timestamp; NaN marks "no threshold" (NA) or "no such edge". */
export interface ThresholdCurve {
  readonly timestamps: Float64Array;
  readonly threshold: Float64Array;
  readonly warning: Float64Array;
  readonly critical: Float64Array;
  /** Lower band edges, only for periods with calc method `=`. */
  readonly warningLow: Float64Array;
  readonly criticalLow: Float64Array;
  /** Index of the period in force; −1 on holidays and where no period matches. */
  readonly periodIndex: Int16Array;
}

export const MAX_CURVE_POINTS = 1_000_000;

/**
 * The threshold, warning and critical curves over a window, for previews. Works one local hour
 * at a time: the time zone is consulted once per hour, the period once per local day and each
 * hour entry once per (day, hour), with the same rules as evaluateThreshold so both agree at
 * every point. A DST shift that is not on a local hour boundary is picked up at the next hour.
 */
export function thresholdCurve(policy: ThresholdPolicy, input: CurveInput): ThresholdCurve {
  const { from, to, step } = input;
  const context = policyContext(policy, input.context);
  if (!(step > 0) || !Number.isFinite(from) || !Number.isFinite(to) || to < from) {
    throw new RangeError("thresholdCurve needs finite from ≤ to and a positive step");
  }
  const n = Math.floor((to - from) / step) + 1;
  if (n > MAX_CURVE_POINTS) throw new RangeError(`thresholdCurve would produce ${n} points, at most ${MAX_CURVE_POINTS} allowed`);

  const curve: ThresholdCurve = {
    timestamps: new Float64Array(n),
    threshold: new Float64Array(n).fill(Number.NaN),
    warning: new Float64Array(n).fill(Number.NaN),
    critical: new Float64Array(n).fill(Number.NaN),
    warningLow: new Float64Array(n).fill(Number.NaN),
    criticalLow: new Float64Array(n).fill(Number.NaN),
    periodIndex: new Int16Array(n).fill(-1),
  };
  const days = new Map<number, PeriodSelection>();
  const atHourStart = policy.deviations?.includes("expressionsAtHourStart") === true;
  const hourValues = new Map<string, HourValue>();

  let i = 0;
  while (i < n) {
    const t = from + i * step;
    const local = localTime(policy.timeZone, t);
    const hourStart = t - (local.minute * 60_000 + local.msInMinute);
    const hourEnd = hourStart + HOUR_MS;
    const dayKey = local.year * 10_000 + local.month * 100 + local.day;
    let selection = days.get(dayKey);
    if (selection === undefined) {
      selection = selectPeriodForDate(policy, dateFacts(local.year, local.month, local.day));
      days.set(dayKey, selection);
    }

    if (selection.kind !== "period") {
      for (; i < n && from + i * step < hourEnd; i++) curve.timestamps[i] = from + i * step;
      continue;
    }

    const { period, index } = selection;
    const valueAt = (hour: number, now: number) => {
      const key = `${index}|${hour}|${now}`;
      let v = hourValues.get(key);
      if (v === undefined) {
        v = hourValue(period, hour, now, context);
        hourValues.set(key, v);
      }
      return v;
    };
    // As evaluateThreshold: expressions that read time offsets are computed at each point's time
    // (Bischeck's check time), unless the policy opts into computing them at the hour's start.
    const perPoint = !atHourStart && spanReadsTime(period, local.hour);
    const hourly = perPoint ? null : hourSpan(period, local.hour, hourStart, valueAt);
    for (; i < n; i++) {
      const ti = from + i * step;
      if (ti >= hourEnd) break;
      curve.timestamps[i] = ti;
      curve.periodIndex[i] = index;
      const span = hourly ?? hourSpan(period, local.hour, hourStart, valueAt, ti);
      const threshold = interpolate(span, Math.floor((ti - hourStart) / 60_000));
      if (threshold === null) continue;
      const b = boundaries(period.calcMethod, threshold, span.warning, span.critical);
      curve.threshold[i] = threshold;
      curve.warning[i] = b.warning;
      curve.critical[i] = b.critical;
      if (b.warningLow !== null) curve.warningLow[i] = b.warningLow;
      if (b.criticalLow !== null) curve.criticalLow[i] = b.criticalLow;
    }
  }
  return curve;
}
