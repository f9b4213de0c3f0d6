import { type CompiledExpr, compiled, ExprError, ExprEvalError, type Limits, type Macros, type SeriesData } from "@tidemark/expr";
import type { HourEntry, Period } from "./policy.ts";

/** What expression hour entries are evaluated against. */
export interface ThresholdContext {
  readonly data?: SeriesData;
  readonly macros?: Macros;
  readonly dropNulls?: boolean;
  readonly unknownSeries?: "error" | "null";
  readonly limits?: Partial<Limits>;
}

type PreparedEntry =
  | { readonly kind: "constant"; readonly value: number }
  | { readonly kind: "expression"; readonly expr: CompiledExpr }
  | { readonly kind: "invalid"; readonly error: ExprError }
  | null;

export const HOUR_MS = 3_600_000;
const prepared = new WeakMap<Period, readonly PreparedEntry[]>();

function prepareEntry(entry: HourEntry): PreparedEntry {
  if (entry === null) return null;
  if (entry.kind === "constant") return entry;
  try {
    // By source text: thousands of items often share one macro-based expression.
    return { kind: "expression", expr: compiled(entry.source) };
  } catch (error) {
    if (error instanceof ExprError) return { kind: "invalid", error };
    throw error;
  }
}

/** Expression sources are parsed and compiled once per period object, not once per evaluation. */
function entries(period: Period): readonly PreparedEntry[] {
  let list = prepared.get(period);
  if (list === undefined) {
    list = period.hours.entries.map(prepareEntry);
    prepared.set(period, list);
  }
  return list;
}

export interface HourValue {
  readonly value: number | null;
  readonly error: ExprError | null;
}

const NULL_HOUR: HourValue = { value: null, error: null };

/** The context with the policy's notFullListParse applied (the same object when nothing changes). */
export function policyContext(
  policy: { notFullListParse?: boolean | undefined },
  context: ThresholdContext | undefined,
): ThresholdContext | undefined {
  if (policy.notFullListParse === undefined || context === undefined || context.dropNulls !== undefined) return context;
  return { ...context, dropNulls: policy.notFullListParse };
}

/**
 * T[hour] of a period, an expression evaluated with the given `now`; Bischeck's behaviour on a
 * failing expression (a null threshold) is kept, with the error reported.
 */
export function hourValue(period: Period, hour: number, now: number, context: ThresholdContext | undefined): HourValue {
  const entry = entries(period)[hour];
  if (entry === undefined || entry === null) return NULL_HOUR;
  switch (entry.kind) {
    case "constant":
      return { value: entry.value, error: null };
    case "invalid":
      return { value: null, error: entry.error };
    case "expression": {
      if (context?.data === undefined) {
        return {
          value: null,
          error: new ExprEvalError("no series data in the context for an expression hour", { offset: 0, line: 1, column: 1 }),
        };
      }
      try {
        return {
          value: entry.expr.run({
            now,
            data: context.data,
            macros: context.macros,
            dropNulls: context.dropNulls,
            unknownSeries: context.unknownSeries,
            limits: context.limits,
          }),
          error: null,
        };
      } catch (error) {
        if (error instanceof ExprError) return { value: null, error };
        throw error;
      }
    }
  }
}

function sameTimelessExpression(period: Period, hour: number, other: number): boolean {
  const list = entries(period);
  const a = list[hour];
  const b = list[other];
  return a?.kind === "expression" && b?.kind === "expression" && a.expr === b.expr && !a.expr.readsTime;
}

/** Whether T[h] or T[h+1] is an expression that reads time offsets (its value depends on `now`). */
export function spanReadsTime(period: Period, hour: number): boolean {
  const list = entries(period);
  const a = list[hour];
  const b = list[(hour + 1) % 24];
  return (a?.kind === "expression" && a.expr.readsTime) || (b?.kind === "expression" && b.expr.readsTime);
}

/** Everything needed to compute T(h:m) for every minute m of one local hour. */
export interface HourSpan {
  readonly from: HourValue;
  readonly to: HourValue;
  /** Percent, after the per-hour override. */
  readonly warning: number;
  readonly critical: number;
}

/**
 * T[h] and T[(h+1) mod 24] from the same period's table: at 23:xx the next value is hour 0 of
 * the same period, as in Bischeck, even when the next day would select another period.
 */
export function hourSpan(
  period: Period,
  hour: number,
  hourStart: number,
  valueAt: (hour: number, now: number) => HourValue,
  checkTime?: number,
): HourSpan {
  const levels = period.hours.levels[hour] ?? null;
  const next = (hour + 1) % 24;
  // Bischeck computes both neighbours at the time of the check (Twenty4HourThreshold's
  // calculateForInterval); the `expressionsAtHourStart` deviation computes each at its hour's start.
  const from = valueAt(hour, checkTime ?? hourStart);
  return {
    from,
    // The common macro-expression table repeats one expression in every hour: when it reads no
    // time offsets, T[h+1] is T[h] (same data, and `now` does not matter), computed once.
    to: sameTimelessExpression(period, hour, next) ? from : valueAt(next, checkTime ?? hourStart + HOUR_MS),
    warning: levels?.warning ?? period.warning,
    critical: levels?.critical ?? period.critical,
  };
}

/** T(h:m) = T[h] + m·(T[h+1] − T[h]) / 60; null when either neighbour is null. */
export function interpolate(span: HourSpan, minute: number): number | null {
  const a = span.from.value;
  const b = span.to.value;
  if (a === null || b === null) return null;
  return a + (minute * (b - a)) / 60;
}
