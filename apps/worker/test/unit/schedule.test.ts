import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { latestDue, nextDue, parseSchedule } from "../../src/schedule.ts";

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

  it("falls due on whole seconds, so that an organisation's runs due in one second are one claim", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 7200 }), fc.integer({ min: 0, max: 2 ** 41 }), (serviceId, seconds, now) => {
        const schedule = parseSchedule(`${seconds}S`, serviceId);
        const latest = latestDue(schedule, now, now - seconds * 1000)!;
        expect(Math.abs(latest % 1000)).toBe(0);
        expect(nextDue(schedule, latest)! - latest).toBe(seconds * 1000);
      }),
    );
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

  // The scheduler does not look at a service again before its nextDue: that must lose no run.
  it("a run falls due by `now` exactly when the next due instant after the last run is at or before `now`", () => {
    const texts = ["30S", "5M", "1H", "0 15 10 ? * MON-FRI", "0 0/5 * * * ?", "0 0 12 ? * 2", "after:h-s"];
    fc.assert(
      fc.property(
        fc.constantFrom(...texts),
        fc.constantFrom("UTC", "Europe/Stockholm", "America/New_York"),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 14 * 86_400_000 }),
        fc.integer({ min: -3_600_000, max: 3 * 86_400_000 }),
        (text, timeZone, serviceId, sinceOffset, ahead) => {
          const schedule = parseSchedule(text, serviceId, timeZone);
          const since = T + sinceOffset;
          const now = since + ahead;
          const next = nextDue(schedule, since);
          expect(latestDue(schedule, now, since) !== null).toBe(next !== null && next <= now);
          if (next === null) return;
          expect(next).toBeGreaterThan(since);
          // The boundary itself: due at that very instant, not a millisecond before.
          expect(latestDue(schedule, next, since)).toBe(next);
          expect(latestDue(schedule, next - 1, since)).toBeNull();
        },
      ),
      { numRuns: 2000 },
    );
    // Cron schedules walk every fire time up to `now` (a 5-minute cron over three days is 864 of
    // them): 1–5 s on this 2-core machine, past vitest's 5 s default while CI's browsers run.
  }, 30_000);
});
