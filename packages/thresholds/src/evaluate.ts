import type { ExprError } from "@tidemark/expr";
import { type LocalTime, localTime } from "./calendar.ts";
import { hourSpan, hourValue, interpolate, policyContext, type ThresholdContext } from "./hours.ts";
import { type PeriodRule, periodForDate } from "./period.ts";
import type { CalcMethod, State, ThresholdPolicy } from "./policy.ts";
import { type Boundaries, boundaries, classify, explain } from "./states.ts";

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
  /**
   * Bischeck-style text, written when read (a worker evaluates thousands of points a second and
   * keeps the text of few): a getter, so spreading a result or JSON.stringify does not copy it.
   */
  readonly explanation: string;
}

/** A class, so that the explanation is a getter on the prototype: a getter in each object literal is far slower to create. */
class Result implements ThresholdResult {
  constructor(
    readonly state: State,
    /** The value classified (null when missing or not finite), for the explanation. */
    private readonly value: number | null,
    readonly threshold: number | null,
    readonly warning: number | null,
    readonly critical: number | null,
    readonly warningLow: number | null,
    readonly criticalLow: number | null,
    readonly periodIndex: number | null,
    readonly rule: PeriodRule | null,
    readonly calcMethod: CalcMethod | null,
    readonly noThreshold: NoThresholdReason | null,
    readonly error: ExprError | null,
    readonly hour: number,
    readonly minute: number,
  ) {}

  get explanation(): string {
    const bounds = this.warning === null || this.critical === null ? null : (this as Boundaries);
    return explain(this.state, this.value, this.calcMethod, this.threshold, bounds);
  }
}

export interface EvaluateThresholdInput {
  /** Epoch milliseconds. */
  readonly at: number;
  /** The measured value; null (or a non-finite number) gets policy.nullState. */
  readonly value: number | null;
  readonly context?: ThresholdContext;
}

/**
 * The state of one measured value against a policy at an instant, as Bischeck's
 * Twenty4HourThreshold.getState: a holiday is OK whatever the value; otherwise a null value gets
 * the policy's nullState, and a missing threshold (no period, null hour, failing expression) is
 * OK and shown as NA. Expression hours are computed at `at` (see the policy's deviations).
 */
export function evaluateThreshold(policy: ThresholdPolicy, input: EvaluateThresholdInput): ThresholdResult {
  const value = input.value !== null && Number.isFinite(input.value) ? input.value : null;
  const local = localTime(policy.timeZone, input.at);
  const selection = periodForDate(policy, local.year, local.month, local.day);
  const valueState: State | null = value === null ? policy.nullState : null;

  // Bischeck's getState answers OK on a holiday before it looks at the value.
  if (selection.kind === "holiday") return noThreshold("OK", value, local, "holiday", null);
  if (selection.kind !== "period") return noThreshold(valueState ?? "OK", value, local, "noPeriod", null);

  const { period, index, rule } = selection;
  const hourStart = input.at - (local.minute * 60_000 + local.msInMinute);
  const checkTime = policy.deviations?.includes("expressionsAtHourStart") ? undefined : input.at;
  const context = policyContext(policy, input.context);
  const span = hourSpan(period, local.hour, hourStart, (hour, now) => hourValue(period, hour, now, context), checkTime);
  const threshold = interpolate(span, local.minute);
  const error = span.from.error ?? span.to.error;

  if (threshold === null) {
    const reason = error === null ? "nullHour" : "expressionError";
    return noThreshold(valueState ?? "OK", value, local, reason, { periodIndex: index, rule, calcMethod: period.calcMethod, error });
  }

  const b = boundaries(period.calcMethod, threshold, span.warning, span.critical);
  const state = valueState ?? classify(period.calcMethod, value as number, b);
  return new Result(
    state,
    value,
    threshold,
    b.warning,
    b.critical,
    b.warningLow,
    b.criticalLow,
    index,
    rule,
    period.calcMethod,
    null,
    error,
    local.hour,
    local.minute,
  );
}

/** A result without a threshold; `period` when one was selected (its table gave no value). */
function noThreshold(
  state: State,
  value: number | null,
  local: LocalTime,
  reason: NoThresholdReason,
  period: { periodIndex: number; rule: PeriodRule; calcMethod: CalcMethod; error: ExprError | null } | null,
): ThresholdResult {
  return new Result(
    state,
    value,
    null,
    null,
    null,
    null,
    null,
    period?.periodIndex ?? null,
    period?.rule ?? null,
    period?.calcMethod ?? null,
    reason,
    period?.error ?? null,
    local.hour,
    local.minute,
  );
}
