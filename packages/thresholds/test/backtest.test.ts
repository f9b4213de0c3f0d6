import { InMemorySeriesData } from "@tidemark/expr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backtest, evaluateThreshold } from "../src/index.ts";
import { e, hours, period, policy, utc } from "./helpers.ts";

const MINUTE = 60_000;
const T0 = utc(2024, 3, 6, 10, 0);

/** One result per minute from T0. */
function minutes(values: (number | null)[]) {
  return {
    timestamps: values.map((_, i) => T0 + i * MINUTE),
    values: values.map((v) => (v === null ? Number.NaN : v)),
  };
}

/** Should be lower than 100; WARNING above 110, CRITICAL above 130. */
const upper = policy({ periods: [period({ calcMethod: "<", warning: 10, critical: 30, hours: hours(100) })] });

describe("backtest", () => {
  it("raises an alert only once the state is hard, escalates within it and closes on the first OK", () => {
    const series = minutes([105, 115, 115, 115, 115, 140, 140, 140, 90, 90]);
    const result = backtest(upper, { series, from: T0, to: T0 + 10 * MINUTE, stepMs: MINUTE });
    expect(result.states).toEqual(["OK", "WARNING", "WARNING", "WARNING", "WARNING", "CRITICAL", "CRITICAL", "CRITICAL", "OK", "OK"]);
    // Bischeck's ServiceState: hard on the fourth problem in a row (maxSoft 3), CRITICAL at once while hard.
    expect(result.spans).toEqual([
      { from: T0 + 4 * MINUTE, to: T0 + 5 * MINUTE, state: "WARNING" },
      { from: T0 + 5 * MINUTE, to: T0 + 8 * MINUTE, state: "CRITICAL" },
    ]);
    expect(result.summary).toMatchObject({ results: 10, alerts: 1, criticalAlerts: 1, warningMinutes: 1, criticalMinutes: 3 });
  });

  it("never goes hard when the streak is not longer than maxSoft", () => {
    const series = minutes([150, 150, 90, 150, 150, 90]);
    const soft = backtest(upper, { series, from: T0, to: T0 + 6 * MINUTE, stepMs: MINUTE });
    expect(soft.summary.alerts).toBe(0);
    expect(soft.spans).toEqual([]);
    const immediate = backtest({ ...upper, maxSoft: 1 }, { series, from: T0, to: T0 + 6 * MINUTE, stepMs: MINUTE });
    expect(immediate.summary).toMatchObject({ alerts: 2, criticalAlerts: 2, criticalMinutes: 2 });
  });

  it("gives null results the policy's nullState and keeps holidays quiet", () => {
    const series = minutes([null, null, null, null]);
    expect(backtest(upper, { series, from: T0, to: T0 + 4 * MINUTE, stepMs: MINUTE }).spans).toEqual([
      { from: T0 + 3 * MINUTE, to: T0 + 4 * MINUTE, state: "UNKNOWN" },
    ]);
    const holiday = { ...upper, holidays: [{ year: 2024, days: ["0306"] }] };
    const loud = minutes([500, 500, 500, 500]);
    const quiet = backtest(holiday, { series: loud, from: T0, to: T0 + 4 * MINUTE, stepMs: MINUTE });
    expect(quiet.summary).toMatchObject({ alerts: 0, withoutThreshold: 4 });
  });

  it("counts a gap in the data as at most one step, not as an outage", () => {
    const series = { timestamps: [T0, T0 + MINUTE, T0 + 2 * MINUTE, T0 + 3 * MINUTE, T0 + 60 * MINUTE], values: [200, 200, 200, 200, 200] };
    const result = backtest(upper, { series, from: T0, to: T0 + 61 * MINUTE, stepMs: MINUTE });
    expect(result.summary.criticalMinutes).toBe(2);
  });

  it("judges aggregated buckets on the side the calc method watches", () => {
    const bucket = 5 * MINUTE;
    const series = { timestamps: [T0, T0 + bucket, T0 + 2 * bucket], values: [100, 100, 100], low: [60, 60, 60], high: [150, 150, 150] };
    const upperResult = backtest({ ...upper, maxSoft: 2 }, { series, from: T0, to: T0 + 3 * bucket, stepMs: bucket });
    expect(upperResult.states).toEqual(["CRITICAL", "CRITICAL", "CRITICAL"]);
    expect(upperResult.summary.criticalMinutes).toBe(5);
    const lower = policy({ periods: [period({ calcMethod: ">", warning: 10, critical: 30, hours: hours(100) })] });
    expect(backtest(lower, { series, from: T0, to: T0 + 3 * bucket, stepMs: bucket }).states).toEqual(["CRITICAL", "CRITICAL", "CRITICAL"]);
    const gentle = { ...series, low: [95, 95, 95], high: [105, 105, 105] };
    expect(backtest(lower, { series: gentle, from: T0, to: T0 + 3 * bucket, stepMs: bucket }).states).toEqual(["OK", "OK", "OK"]);
  });

  it("evaluates expression hours against the context's history", () => {
    const data = new InMemorySeriesData();
    for (let i = 0; i < 200; i++) data.append("h-s-ref", T0 - 120 * MINUTE + i * MINUTE, 50);
    const expr = policy({
      periods: [period({ calcMethod: "<", warning: 10, critical: 30, hours: hours(Array(24).fill(e("h-s-ref[-1M]"))) })],
    });
    const series = minutes([52, 60, 60, 60]);
    const result = backtest(expr, { series, from: T0, to: T0 + 4 * MINUTE, stepMs: MINUTE, context: { data } });
    expect(result.states).toEqual(["OK", "WARNING", "WARNING", "WARNING"]);
    expect(result.curve.threshold[0]).toBe(50);
  });

  it("agrees with evaluateThreshold at every result", () => {
    const twoPeriods = policy({
      periods: [
        period({
          weeks: [{ week: null, dayOfWeek: 4 }],
          calcMethod: "=",
          warning: 5,
          critical: 15,
          hours: hours(Array.from({ length: 24 }, (_, h) => 80 + h)),
        }),
        period({ calcMethod: "<", hours: hours(Array.from({ length: 24 }, (_, h) => (h % 5 === 0 ? null : 100 + 3 * h))) }),
      ],
      timeZone: "Europe/Stockholm",
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        fc.array(fc.option(fc.double({ min: 40, max: 200, noNaN: true }), { nil: null }), { minLength: 1, maxLength: 120 }),
        (offset, values) => {
          const start = T0 + offset * MINUTE;
          const series = {
            timestamps: values.map((_, i) => start + i * MINUTE + 17_000),
            values: values.map((v) => (v === null ? Number.NaN : v)),
          };
          const result = backtest(twoPeriods, { series, from: start, to: start + values.length * MINUTE, stepMs: MINUTE });
          const expected = series.timestamps.map((at, i) => evaluateThreshold(twoPeriods, { at, value: values[i] ?? null }).state);
          expect(result.states).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("refuses a step that is not whole minutes", () => {
    expect(() => backtest(upper, { series: minutes([1]), from: T0, to: T0, stepMs: 1000 })).toThrow(RangeError);
  });
});
