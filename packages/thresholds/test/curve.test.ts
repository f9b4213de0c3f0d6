import { InMemorySeriesData } from "@tidemark/expr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateThreshold, type Period, type ThresholdPolicy, thresholdCurve } from "../src/index.ts";
import { e, hours, period, policy, utc } from "./helpers.ts";

const DAY = 86_400_000;
const MIN = 60_000;
const table = Array.from({ length: 24 }, (_, h) => (h % 5 === 4 ? null : 1000 + 37 * h));

const periods: Period[] = [
  period({ months: [{ month: null, dayOfMonth: 1 }], calcMethod: "=", hours: hours(table), warning: 5, critical: 15 }),
  period({ weeks: [{ week: null, dayOfWeek: 1 }], calcMethod: "<", hours: hours(table.map((v) => (v === null ? null : v * 2))) }),
  period({ hours: hours(table, [null, null, { warning: 1, critical: 2 }]) }),
];
const data = new InMemorySeriesData();
const start = utc(2024, 2, 20, 0, 0);
for (let m = -1440; m < 50 * 1440; m += 5) data.append("h-s-i", start + m * MIN, 500 + (m % 1440));
const exprPeriod = period({ hours: hours(Array.from({ length: 24 }, (_, h) => (h === 7 ? null : e("h-s-i[-30M] + 100")))) });

function policies(): [string, ThresholdPolicy][] {
  return [
    ["constant, UTC", policy({ periods, holidays: [{ year: 2024, days: ["0229"] }] })],
    ["constant, Stockholm (DST on 31 March)", policy({ periods, timeZone: "Europe/Stockholm" })],
    ["constant, Kolkata (+05:30)", policy({ periods, timeZone: "Asia/Kolkata" })],
    ["expressions", policy({ periods: [exprPeriod] })],
  ];
}

describe("thresholdCurve", () => {
  it.each(policies())("matches evaluateThreshold at sampled points (%s)", (_, p) => {
    const from = start;
    const curve = thresholdCurve(p, { from, to: from + 45 * DAY, step: 7 * MIN, context: { data } });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: curve.timestamps.length - 1 }), (i) => {
        const at = curve.timestamps[i] as number;
        const r = evaluateThreshold(p, { at, value: 0, context: { data } });
        const num = (x: number | null) => (x === null ? Number.NaN : x);
        expect(at).toBe(from + i * 7 * MIN);
        expect(curve.threshold[i]).toBe(num(r.threshold));
        expect(curve.warning[i]).toBe(num(r.warning));
        expect(curve.critical[i]).toBe(num(r.critical));
        expect(curve.warningLow[i]).toBe(num(r.warningLow));
        expect(curve.criticalLow[i]).toBe(num(r.criticalLow));
        expect(curve.periodIndex[i]).toBe(r.periodIndex ?? -1);
      }),
      { numRuns: 400 },
    );
  });

  it("gives concrete values for a simple day", () => {
    const p = policy({ periods: [period({ hours: hours([100, 160, ...Array(22).fill(100)]) })] });
    const c = thresholdCurve(p, { from: utc(2024, 3, 13, 0, 0), to: utc(2024, 3, 13, 1, 30), step: 30 * MIN });
    expect(Array.from(c.threshold)).toEqual([100, 130, 160, 130]);
    expect(Array.from(c.warning)).toEqual([90, 117, 144, 117]);
    expect(Array.from(c.critical)).toEqual([70, 91, 112, 91]);
    expect(Array.from(c.warningLow).every(Number.isNaN)).toBe(true);
  });

  it("marks holidays and days without a period as NaN with period −1", () => {
    const p = policy({ periods: [period({ weeks: [{ week: null, dayOfWeek: 4 }] })], holidays: [{ year: 2024, days: ["0314"] }] });
    const c = thresholdCurve(p, { from: utc(2024, 3, 13, 23, 0), to: utc(2024, 3, 14, 1, 0), step: 60 * MIN });
    expect(Array.from(c.periodIndex)).toEqual([0, -1, -1]);
    expect(Number.isNaN(c.threshold[1] as number)).toBe(true);
  });

  it("refuses bad windows and oversized requests", () => {
    const p = policy();
    expect(() => thresholdCurve(p, { from: 10, to: 0, step: 1 })).toThrow(RangeError);
    expect(() => thresholdCurve(p, { from: 0, to: 10, step: 0 })).toThrow(RangeError);
    expect(() => thresholdCurve(p, { from: 0, to: 365 * DAY, step: 1000 })).toThrow(/at most/);
  });

  it("includes `to` when it falls on a step", () => {
    const c = thresholdCurve(policy(), { from: 0, to: 10 * MIN, step: MIN });
    expect(c.timestamps.length).toBe(11);
    expect(c.timestamps[10]).toBe(10 * MIN);
  });
});
