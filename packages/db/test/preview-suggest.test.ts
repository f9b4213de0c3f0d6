import type { ThresholdPolicy } from "@tidemark/thresholds";
import { describe, expect, it } from "vitest";
import { downsample, unpackPoints } from "../src/preview.ts";
import { fitSuggestion, roundThreshold } from "../src/suggest.ts";

const HOUR = 3_600_000;
const MONDAY = Date.UTC(2026, 0, 5);

function policy(calcMethod: "<" | ">", weeks: ThresholdPolicy["periods"][number]["weeks"] = []): ThresholdPolicy {
  return {
    periods: [
      { months: [], weeks, calcMethod, warning: 10, critical: 30, hours: { entries: Array(24).fill(null), levels: Array(24).fill(null) } },
    ],
    holidays: [],
    nullState: "UNKNOWN",
    maxSoft: 3,
    timeZone: "UTC",
  };
}

describe("downsample", () => {
  it("keeps every peak and trough of a bucket while averaging it", () => {
    const timestamps = Float64Array.from({ length: 600 }, (_, i) => i * 60_000);
    const values = Float64Array.from({ length: 600 }, (_, i) => (i === 137 ? 1000 : i === 420 ? -50 : 10));
    const points = downsample({ timestamps, values, low: values, high: values }, { draft: null, deployed: null }, 0, 600 * 60_000, 60);
    expect(points).toHaveLength(60);
    expect(Math.max(...points.map((p) => p.max ?? 0))).toBe(1000);
    expect(Math.min(...points.map((p) => p.min ?? 0))).toBe(-50);
    expect(points[13]).toMatchObject({ ts: 13 * 600_000, max: 1000, min: 10, avg: 109 });
  });
});

describe("unpackPoints", () => {
  it("reads timestamps relative to the origin and empty values as null", () => {
    const { timestamps, values } = unpackPoints("0 1.5,60000 ,120000 -2e-7", 1_000);
    expect([...timestamps]).toEqual([1_000, 61_000, 121_000]);
    expect(values[0]).toBe(1.5);
    expect(Number.isNaN(values[1])).toBe(true);
    expect(values[2]).toBe(-2e-7);
    expect(unpackPoints(null, 0).timestamps).toHaveLength(0);
  });
});

describe("fitSuggestion", () => {
  // Four weeks of hourly buckets: mean 100 + hour, peaks 10 above it, and one burst (400) on the first Tuesday at 09:00.
  const buckets = Array.from({ length: 4 * 7 * 24 }, (_, i) => {
    const ts = MONDAY + i * HOUR;
    const hour = i % 24;
    const burst = i === 24 + 9;
    return { ts, avg: 100 + hour, min: 90 + hour, max: burst ? 400 : 110 + hour };
  });

  it("puts T at the percentile of each hour's peaks and widens it until the budget is met", () => {
    const budget = fitSuggestion(policy("<"), buckets, { periodIndex: 0, percentile: 95, alertsPerWeek: 1, weeks: 4 });
    expect(budget.hours[3]).toBe(113);
    expect(budget.hours[9]).toBe(119);
    expect(budget.samples.every((n) => n === 28)).toBe(true);
    expect(budget).toMatchObject({ margin: 0, alertsPerWeek: 0.25, withinBudget: true });
    // The burst (400 against 119) is an alert up to the widest margin tried: a budget of zero cannot be met.
    expect(fitSuggestion(policy("<"), buckets, { periodIndex: 0, percentile: 95, alertsPerWeek: 0, weeks: 4 })).toMatchObject({
      withinBudget: false,
      alertsPerWeek: 0.25,
      margin: 2,
    });
    // Peaks of 150 at 09:00 every other day: the median (134.5) alerts 3.5 times a week, 5 % more stays quiet.
    const everyOtherDay = buckets.map((b, i) => (i % 48 === 9 ? { ...b, max: 150 } : i === 24 + 9 ? { ...b, max: 119 } : b));
    const fitted = fitSuggestion(policy("<"), everyOtherDay, { periodIndex: 0, percentile: 50, alertsPerWeek: 0.5, weeks: 4 });
    expect(fitted).toMatchObject({ margin: 0.05, alertsPerWeek: 0, withinBudget: true });
    expect(fitted.hours[9]).toBe(141);
    expect(fitSuggestion(policy("<"), everyOtherDay, { periodIndex: 0, percentile: 50, alertsPerWeek: 5, weeks: 4 })).toMatchObject({
      margin: 0,
      alertsPerWeek: 3.5,
    });
  });

  it("reads troughs for `>` and only the days the period applies to", () => {
    const weekends = fitSuggestion(
      policy(">", [
        { week: null, dayOfWeek: 1 },
        { week: null, dayOfWeek: 7 },
      ]),
      buckets,
      {
        periodIndex: 0,
        percentile: 95,
        alertsPerWeek: 1,
        weeks: 4,
      },
    );
    expect(weekends.samples[0]).toBe(8);
    expect(weekends.hours[0]).toBe(90);
  });

  it("rounds thresholds to three significant digits", () => {
    expect(roundThreshold(1234.567)).toBe(1230);
    expect(roundThreshold(0.012345)).toBeCloseTo(0.0123, 10);
    expect(roundThreshold(0)).toBe(0);
  });
});
