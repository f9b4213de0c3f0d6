import { type ThresholdCurve, thresholdCurve } from "./curve.ts";
import { INITIAL_HARD_STATE, nextHardState } from "./hard-state.ts";
import type { ThresholdContext } from "./hours.ts";
import type { State, ThresholdPolicy } from "./policy.ts";
import { classify } from "./states.ts";

/**
 * The results a series would have produced. Each entry is one check result; for aggregated
 * history (5-minute or 1-hour buckets) pass the bucket's min and max as `low` and `high`, and the
 * result is judged on the side the calc method watches (`high` for `<`, `low` for `>`, the one
 * farther from T for `=`), so that a short peak inside a bucket still shows as an alert.
 */
export interface BacktestSeries {
  /** Ascending epoch milliseconds. */
  readonly timestamps: ArrayLike<number>;
  /** NaN marks a null result. */
  readonly values: ArrayLike<number>;
  readonly low?: ArrayLike<number>;
  readonly high?: ArrayLike<number>;
}

export interface BacktestInput {
  readonly series: BacktestSeries;
  /** The window (epoch ms); results outside it are ignored. */
  readonly from: number;
  readonly to: number;
  /**
   * Nominal spacing of the results: the step of the threshold curve (aligned to multiples of it)
   * and the most time one result stands for when counting minutes, so a gap is not an outage.
   */
  readonly stepMs: number;
  readonly context?: ThresholdContext;
}

export type AlertState = Exclude<State, "OK">;

/** A stretch during which the hard state was not OK; `to` is the first result that left it. */
export interface AlertSpan {
  readonly from: number;
  readonly to: number;
  readonly state: AlertState;
}

export interface BacktestSummary {
  /** Results judged inside the window. */
  readonly results: number;
  /** Results without a threshold (holiday, no period, null hour, failing expression). */
  readonly withoutThreshold: number;
  /** Alerts opened: hard state leaving OK. A WARNING that escalates to CRITICAL stays one alert. */
  readonly alerts: number;
  /** Alerts whose worst hard state was CRITICAL. */
  readonly criticalAlerts: number;
  readonly warningMinutes: number;
  readonly criticalMinutes: number;
  readonly unknownMinutes: number;
}

export interface BacktestResult {
  /** Threshold and bands on the grid from ⌊from/step⌋·step to `to`. */
  readonly curve: ThresholdCurve;
  /** Soft state of every result in the window, in order. */
  readonly states: readonly State[];
  readonly spans: readonly AlertSpan[];
  readonly summary: BacktestSummary;
}

const MINUTE_MS = 60_000;

function judged(calc: ">" | "<" | "=", low: number, high: number, threshold: number): number {
  if (calc === "<") return high;
  if (calc === ">") return low;
  return Math.abs(high - threshold) >= Math.abs(low - threshold) ? high : low;
}

/**
 * What a threshold policy would have raised over a stretch of history: the threshold curve, each
 * result's state, and the spans of non-OK hard states (soft/hard with the policy's maxSoft), with
 * counts of alerts and minutes. Pure; the same state rules as evaluateThreshold at every result.
 */
export function backtest(policy: ThresholdPolicy, input: BacktestInput): BacktestResult {
  const { series, stepMs, context } = input;
  if (!(stepMs >= MINUTE_MS) || stepMs % MINUTE_MS !== 0) throw new RangeError("backtest needs a step of whole minutes");
  const start = Math.floor(input.from / stepMs) * stepMs;
  const curve = thresholdCurve(policy, { from: start, to: Math.max(start, input.to), step: stepMs, context });
  const { timestamps, values } = series;
  const low = series.low ?? values;
  const high = series.high ?? values;

  const states: State[] = [];
  const spans: AlertSpan[] = [];
  let track = INITIAL_HARD_STATE;
  let open: { from: number; state: AlertState } | null = null;
  let alertReachedCritical = false;
  let alerts = 0;
  let criticalAlerts = 0;
  let withoutThreshold = 0;
  const minutes = { WARNING: 0, CRITICAL: 0, UNKNOWN: 0 };

  const n = timestamps.length;
  for (let i = 0; i < n; i++) {
    const ts = timestamps[i] as number;
    if (ts < input.from || ts > input.to) continue;
    const at = Math.min(curve.timestamps.length - 1, Math.floor((ts - start) / stepMs));
    const threshold = curve.threshold[at] as number;
    const value = values[i] as number;
    let state: State;
    if (Number.isNaN(value)) state = policy.nullState;
    else if (Number.isNaN(threshold)) state = "OK";
    else {
      const period = policy.periods[curve.periodIndex[at] as number];
      const calc = period?.calcMethod ?? ">";
      const warningLow = curve.warningLow[at] as number;
      const criticalLow = curve.criticalLow[at] as number;
      state = classify(calc, judged(calc, low[i] as number, high[i] as number, threshold), {
        warning: curve.warning[at] as number,
        critical: curve.critical[at] as number,
        warningLow: Number.isNaN(warningLow) ? null : warningLow,
        criticalLow: Number.isNaN(criticalLow) ? null : criticalLow,
      });
    }
    if (Number.isNaN(threshold)) withoutThreshold++;
    states.push(state);

    const step = nextHardState(track, state, policy.maxSoft);
    if (step.hardChanged) {
      if (open !== null) spans.push({ from: open.from, to: ts, state: open.state });
      open = step.hardState === "OK" ? null : { from: ts, state: step.hardState };
      if (track.hardState === "OK" && step.hardState !== "OK") {
        alerts++;
        alertReachedCritical = false;
      }
    }
    if (step.hardState !== "OK") {
      const hard = step.hardState as AlertState;
      if (hard === "CRITICAL" && !alertReachedCritical) {
        criticalAlerts++;
        alertReachedCritical = true;
      }
      const next = i + 1 < n ? Math.min(timestamps[i + 1] as number, input.to) : input.to;
      minutes[hard] += Math.max(0, Math.min(next - ts, stepMs)) / MINUTE_MS;
    }
    track = step;
  }
  if (open !== null) spans.push({ from: open.from, to: input.to, state: open.state });

  return {
    curve,
    states,
    spans,
    summary: {
      results: states.length,
      withoutThreshold,
      alerts,
      criticalAlerts,
      warningMinutes: minutes.WARNING,
      criticalMinutes: minutes.CRITICAL,
      unknownMinutes: minutes.UNKNOWN,
    },
  };
}
