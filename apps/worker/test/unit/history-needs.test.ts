import { describe, expect, it } from "vitest";
import { policyNeeds, sourceNeeds } from "../../src/history-needs.ts";
import { capacityFor, SeriesWindow } from "../../src/series-window.ts";

const macros = { host: "h", service: "s", item: "i" };

describe("what thresholds read from history", () => {
  it.each([
    ["h-s-i[0]", { count: 1, lookbackMs: 0, toOldest: false }],
    ["avg(h-s-i[0:9])", { count: 10, lookbackMs: 0, toOldest: false }],
    ["max(h-s-i[1,3,5])", { count: 6, lookbackMs: 0, toOldest: false }],
    ["h-s-i[-30M]", { count: 1, lookbackMs: 1_800_000, toOldest: false }],
    ["avg(h-s-i[-30M:-120M])", { count: 1, lookbackMs: 7_200_000, toOldest: false }],
    ["avg(h-s-i[-24H:END])", { count: 1, lookbackMs: 86_400_000, toOldest: true }],
    ["avg($$HOSTNAME$$-$$SERVICENAME$$-$$SERVICEITEMNAME$$[0:4])", { count: 5, lookbackMs: 0, toOldest: false }],
  ])("%s", (source, need) => {
    expect(sourceNeeds(source, macros).get("h-s-i")).toMatchObject(need);
  });

  it("merges the needs of every period and hour, and ignores sources that do not parse", () => {
    const hours = (source: string) => ({
      entries: Array.from({ length: 24 }, () => ({ kind: "expression" as const, source })),
      levels: Array(24).fill(null),
    });
    const needs = policyNeeds(
      {
        periods: [
          { months: [], weeks: [], calcMethod: ">", warning: 10, critical: 20, hours: hours("avg(h-s-i[0:4], other-s-i[-10M])") },
          {
            months: [],
            weeks: [{ week: null, dayOfWeek: 1 }],
            calcMethod: ">",
            warning: 10,
            critical: 20,
            hours: hours("h-s-i[-60M] + ("),
          },
        ],
        holidays: [],
        nullState: "UNKNOWN",
        maxSoft: 3,
        timeZone: "UTC",
      },
      macros,
    );
    expect(needs.get("h-s-i")).toMatchObject({ count: 5, lookbackMs: 0 });
    expect(needs.get("other-s-i")).toMatchObject({ lookbackMs: 600_000 });
  });

  it("sizes a window from the schedule when known", () => {
    expect(capacityFor({ count: 10, lookbackMs: 0, toOldest: false })).toBe(16);
    expect(capacityFor({ count: 1, lookbackMs: 3 * 3_600_000, toOldest: false, intervalMs: 60_000 })).toBe(227);
    expect(capacityFor({ count: 1, lookbackMs: 3 * 3_600_000, toOldest: false })).toBe(13_502);
  });
});

describe("the series window", () => {
  it("keeps points in time order, ignores older arrivals, and answers like Bischeck's cache", () => {
    const w = new SeriesWindow();
    expect(w.hold("h-s-i", { count: 3, lookbackMs: 0, toOldest: false })).toBe(true);
    expect(w.hold("h-s-i", { count: 2, lookbackMs: 0, toOldest: false })).toBe(false);
    for (let i = 0; i < 20; i++) w.append("h-s-i", 1000 * i, i);
    w.append("h-s-i", 5000, 999); // late: already stored, not re-added
    expect(w.byIndex("h-s-i", 0)).toBe(19);
    expect(w.byIndexRange("h-s-i", 0, 2)).toEqual([19, 18, 17]);
    expect(w.nearest("h-s-i", 18_400)).toBe(18);
    expect(w.byIndex("unknown-s-i", 0)).toBeNull();
    expect(w.pointCount()).toBe(16);
  });
});
