import { describe, expect, it } from "vitest";
import { latestDue, parseSchedule } from "../../src/schedule.ts";

const T = Date.UTC(2026, 10, 23, 10, 0, 7); // a Monday

describe("schedules", () => {
  it.each([
    ["30S", 30_000],
    ["5M", 300_000],
    ["1H", 3_600_000],
  ])("%s is an interval of %d ms with a stable offset inside it", (text, periodMs) => {
    const a = parseSchedule(text, "service-a");
    const again = parseSchedule(text, "service-a");
    expect(a).toMatchObject({ kind: "interval", periodMs });
    if (a.kind !== "interval" || again.kind !== "interval") throw new Error("interval expected");
    expect(a.offsetMs).toBe(again.offsetMs);
    expect(a.offsetMs).toBeGreaterThanOrEqual(0);
    expect(a.offsetMs).toBeLessThan(periodMs);
    const due = latestDue(a, T, 0)!;
    expect(due).toBeLessThanOrEqual(T);
    expect(T - due).toBeLessThan(periodMs);
    expect((due - a.offsetMs) % periodMs).toBe(0);
  });

  it("spreads services over the interval (Bischeck's random first offset, but the same on every worker)", () => {
    const offsets = new Set(
      Array.from({ length: 50 }, (_, i) => {
        const s = parseSchedule("5M", `service-${i}`);
        return s.kind === "interval" ? Math.floor(s.offsetMs / 30_000) : -1;
      }),
    );
    expect(offsets.size).toBeGreaterThan(5);
  });

  it("reads Quartz cron expressions (seconds first, ? wildcard) in UTC", () => {
    const s = parseSchedule("0 15 10 ? * MON-FRI", "x");
    expect(s.kind).toBe("cron");
    expect(latestDue(s, Date.UTC(2026, 10, 23, 10, 15, 30), Date.UTC(2026, 10, 23, 0, 0))).toBe(Date.UTC(2026, 10, 23, 10, 15, 0));
    // Nothing due between Saturday and Sunday.
    expect(latestDue(s, Date.UTC(2026, 10, 22, 23, 0), Date.UTC(2026, 10, 21, 0, 0))).toBeNull();
    // The latest of several missed runs.
    expect(latestDue(s, Date.UTC(2026, 10, 25, 12, 0), Date.UTC(2026, 10, 23, 11, 0))).toBe(Date.UTC(2026, 10, 25, 10, 15));
  });

  it("keeps run-after schedules for the scheduler to trigger", () => {
    expect(parseSchedule("after:host0-rand", "x")).toEqual({ kind: "after", service: "host0-rand" });
    expect(latestDue({ kind: "after", service: "h-s" }, T, 0)).toBeNull();
  });

  it("refuses what is none of the three", () => {
    expect(() => parseSchedule("every five minutes", "x")).toThrow();
  });
});
