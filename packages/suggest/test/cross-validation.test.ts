import { describe, expect, it } from "vitest";
import { countAlerts } from "../src/alerts.ts";
import { fitMarginAndPersistence, folds } from "../src/cross-validation.ts";
import { type LineSpec, thresholdTable } from "../src/lines.ts";
import type { Observation } from "../src/samples.ts";
import { DAY, MONDAY, random } from "./helpers.ts";

/** `days` of roughly normal noise, one result every 5 minutes. */
function noise(days: number, seed: number): Observation[] {
  const r = random(seed);
  return Array.from({ length: (days * DAY) / 300_000 }, (_, i) => {
    const ts = MONDAY + i * 300_000;
    let n = -6;
    for (let k = 0; k < 12; k++) n += r();
    const d = new Date(ts);
    return { ts, value: n, slot: { dayOfWeek: d.getUTCDay() + 1, hour: d.getUTCHours() } };
  });
}

const spec: LineSpec = { calc: "<", warning: 10, critical: 30, range: { lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY } };

describe("margin and persistence", () => {
  it.each([
    { days: 4, seed: 1 },
    { days: 4, seed: 2 },
    { days: 6, seed: 3 },
  ])(
    "$days days (less than the budget's one alert): the margin goes past the first one the folds show at most one alert at (seed $seed)",
    ({ days, seed }) => {
      const fs = folds("none", { kind: "identity" }, noise(days, seed), "UTC", "<", 95);
      const alertsAt = (margin: number) =>
        fs.reduce((a, f) => a + countAlerts(f.judge, thresholdTable(f.profile, f.z0 + margin, spec), spec, 0), 0);
      let oneAlert = 0;
      while (alertsAt(oneAlert) > 1) oneAlert += 0.25;
      const fitted = fitMarginAndPersistence(fs, spec, 1, [0]);
      expect(fitted.within).toBe(true);
      expect(fitted.margin).toBeGreaterThan(oneAlert);
    },
  );

  it("three weeks (the budget allows more than one alert): the margin is the first that keeps the folds within 60 % of it", () => {
    const fs = folds("none", { kind: "identity" }, noise(21, 4), "UTC", "<", 95);
    const alertsAt = (margin: number) =>
      fs.reduce((a, f) => a + countAlerts(f.judge, thresholdTable(f.profile, f.z0 + margin, spec), spec, 0), 0);
    const fitted = fitMarginAndPersistence(fs, spec, 1, [0]);
    expect(alertsAt(fitted.margin)).toBeLessThanOrEqual(0.6 * 3);
    if (fitted.margin > 0) expect(alertsAt(fitted.margin - 0.25)).toBeGreaterThan(0.6 * 3);
  });
});
