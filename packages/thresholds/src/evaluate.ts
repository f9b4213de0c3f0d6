import type { ExprError } from "@tidemark/expr";
import { type LocalTime, localTime } from "./calendar.ts";
import { hourSpan, hourValue, interpolate, type ThresholdContext } from "./hours.ts";
import { type PeriodRule, periodForDate } from "./period.ts";
import type { CalcMethod, State, ThresholdPolicy } from "./policy.ts";
import { boundaries, classify, explain } from "./states.ts";

/** Why a result has no threshold. */
export type NoThresholdReason = "holiday" | "noPeriod" | "nullHour" | "expressionError";

export interface ThresholdResult {
  readonly state: State;
  readonly threshold: number | null;
  /** Warning boundary: below T for `>`, above T for `<`, the upper edge for `=`. */
  readonly warning: number | null;
  readonly critical: number | null;
  /** Lower edges of the `=` bands; null for `>` and `<`. */
  readonly warningLow: number | null;
  readonly criticalLow: number | null;
  /** Index into policy.periods; null on a holiday or when no period matches. */
  readonly periodIndex: number | null;
  readonly rule: PeriodRule | null;
  readonly calcMethod: CalcMethod | null;
  readonly noThreshold: NoThresholdReason | null;
  /** The first expression error met while resolving the hour entries. */
  readonly error: ExprError | null;
  /** Local wall-clock hour and minute the threshold was read at. */
  readonly hour: number;
  readonly minute: number;
  readonly explanation: string;
}

export interface EvaluateThresholdInput {
  /** Epoch milliseconds. */
  readonly at: number;
  /** The measured value; null (or a non-finite number) gets policy.nullState. */
  readonly value: number | null;
  readonly context?: ThresholdContext;
}

/**
 * The state of one measured value against a policy at an instant. A null value always gets the
 * policy's nullState, also when there is no threshold (Bischeck checks the value first); otherwise
 * a missing threshold (holiday, no period, null hour, failing expression) is OK and shown as NA.
 */
export function evaluateThreshold(policy: ThresholdPolicy, input: EvaluateThresholdInput): ThresholdResult {
  const value = input.value !== null && Number.isFinite(input.value) ? input.value : null;
  const local = localTime(policy.timeZone, input.at);
  const selection = periodForDate(policy, local.year, local.month, local.day);
  const valueState: State | null = value === null ? policy.nullState : null;

  if (selection.kind !== "period") {
    return noThreshold(valueState ?? "OK", value, local, selection.kind === "holiday" ? "holiday" : "noPeriod", null);
  }

  const { period, index, rule } = selection;
  const hourStart = input.at - (local.minute * 60_000 + local.msInMinute);
  const span = hourSpan(period, local.hour, hourStart, (hour, now) => hourValue(period, hour, now, input.context));
  const threshold = interpolate(span, local.minute);
  const error = span.from.error ?? span.to.error;

  if (threshold === null) {
    const reason = error === null ? "nullHour" : "expressionError";
    return noThreshold(valueState ?? "OK", value, local, reason, { periodIndex: index, rule, calcMethod: period.calcMethod, error });
  }

  const b = boundaries(period.calcMethod, threshold, span.warning, span.critical);
  const state = valueState ?? classify(period.calcMethod, value as number, b);
  // Built in one literal (no spreads): the worker makes one of these per evaluated point.
  return {
    state,
    threshold,
    warning: b.warning,
    critical: b.critical,
    warningLow: b.warningLow,
    criticalLow: b.criticalLow,
    periodIndex: index,
    rule,
    calcMethod: period.calcMethod,
    noThreshold: null,
    error,
    hour: local.hour,
    minute: local.minute,
    explanation: explain(state, value, period.calcMethod, threshold, b),
  };
}

/** A result without a threshold; `period` when one was selected (its table gave no value). */
function noThreshold(
  state: State,
  value: number | null,
  local: LocalTime,
  reason: NoThresholdReason,
  period: { periodIndex: number; rule: PeriodRule; calcMethod: CalcMethod; error: ExprError | null } | null,
): ThresholdResult {
  return {
    state,
    threshold: null,
    warning: null,
    critical: null,
    warningLow: null,
    criticalLow: null,
    periodIndex: period?.periodIndex ?? null,
    rule: period?.rule ?? null,
    calcMethod: period?.calcMethod ?? null,
    noThreshold: reason,
    error: period?.error ?? null,
    hour: local.hour,
    minute: local.minute,
    explanation: explain(state, value, null, null, null),
  };
}
