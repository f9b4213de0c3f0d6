import type { State } from "@tidemark/thresholds";
import { describe, expect, it } from "vitest";
import { nextFlapping, percentStateChange } from "../src/index.ts";

const states = (s: string) => [...s].map((c) => ({ O: "OK", W: "WARNING", C: "CRITICAL", U: "UNKNOWN" })[c] as State);

describe("Nagios percent state change", () => {
  it.each([
    { history: "O".repeat(21), percent: 0 },
    // Every result changes: all 20 weights (0.75…1.25, mean 1) → 100 %.
    { history: `${"OC".repeat(10)}O`, percent: 100 },
    // One change, between the two newest results: weight 1.25 of 20 possible.
    { history: `${"O".repeat(20)}C`, percent: 6.25 },
    // One change, between the two oldest: weight 0.75.
    { history: `O${"C".repeat(20)}`, percent: 3.75 },
    // Only the last 21 results count.
    { history: `OC${"O".repeat(21)}`, percent: 0 },
    // A short history is aligned to the newest end, so its change weighs as the newest.
    { history: "OC", percent: 6.25 },
  ])("$history → $percent %", ({ history, percent }) => {
    expect(percentStateChange(states(history))).toBeCloseTo(percent, 10);
  });

  it.each([
    { was: false, percent: 49.9, now: false },
    { was: false, percent: 50, now: true },
    { was: true, percent: 30, now: true },
    { was: true, percent: 25, now: true },
    { was: true, percent: 24.9, now: false },
    { was: false, percent: 30, now: false },
  ])("flapping $was at $percent % → $now (thresholds 50/25)", ({ was, percent, now }) => {
    expect(nextFlapping(was, percent)).toBe(now);
  });

  it("honours custom thresholds", () => {
    expect(nextFlapping(false, 30, { high: 30, low: 10 })).toBe(true);
    expect(nextFlapping(true, 9, { high: 30, low: 10 })).toBe(false);
  });
});
