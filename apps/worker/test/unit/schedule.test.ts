import { describe, expect, it } from "vitest";
import { latestDue, parseSchedule } from "../../src/schedule.ts";

const T = Date.UTC(2026, 10, 23, 10, 0, 7); // a Monday

describe("schedules", () => {
  it.each([
    ["30S", 30_000],
    ["5M", 300_000],
    ["1H", 3_600_000],
  ])("%s falls due every %d ms at an offset that is the same on every worker", (text, periodMs) => {
    const a = parseSchedule(text, "service-a");
    const again = parseSchedule(text, "service-a");
    const due = latestDue(a, T, 0)!;
    expect(latestDue(again, T, 0)).toBe(due);
    expect(due).toBeLessThanOrEqual(T);
    expect(T - due).toBeLessThan(periodMs);
    expect(latestDue(a, due + periodMs, due)).toBe(due + periodMs);
    expect(latestDue(a, due + periodMs - 1, due)).toBeNull();
  });

  it("spreads services over the interval (Bischeck's random first offset, but the same on every worker)", () => {
    const offsets = new Set(
      Array.from({ length: 50 }, (_, i) => Math.floor((latestDue(parseSchedule("5M", `service-${i}`), T, 0)! % 300_000) / 30_000)),
    );
    expect(offsets.size).toBeGreaterThan(5);
  });

  it("reads Quartz cron expressions (seconds first, ? wildcard, 2 = Monday) in the organisation's time zone", () => {
    const s = parseSchedule("0 15 10 ? * MON-FRI", "x");
    expect(latestDue(s, Date.UTC(2026, 10, 23, 10, 15, 30), Date.UTC(2026, 10, 23, 0, 0))).toBe(Date.UTC(2026, 10, 23, 10, 15, 0));
    // Nothing due between Saturday and Sunday.
    expect(latestDue(s, Date.UTC(2026, 10, 22, 23, 0), Date.UTC(2026, 10, 21, 0, 0))).toBeNull();
    // The latest of several missed runs.
    expect(latestDue(s, Date.UTC(2026, 10, 25, 12, 0), Date.UTC(2026, 10, 23, 11, 0))).toBe(Date.UTC(2026, 10, 25, 10, 15));
    const stockholm = parseSchedule("0 0 12 ? * 2", "x", "Europe/Stockholm");
    expect(latestDue(stockholm, T + 86_400_000, T)).toBe(Date.UTC(2026, 10, 23, 11, 0));
  });

  it("keeps run-after schedules for the scheduler to trigger", () => {
    expect(parseSchedule("after:host0-rand", "x")).toEqual({ kind: "after", service: "host0-rand" });
    expect(latestDue({ kind: "after", service: "h-s" }, T, 0)).toBeNull();
  });

  it("refuses what is none of the three", () => {
    expect(() => parseSchedule("every five minutes", "x")).toThrow();
  });
});
