import { describe, expect, it } from "vitest";
import { parseQuartz, parseSchedule, QuartzCron, ScheduleError, scheduleProblem } from "../src/index.ts";
import { DST_EDGE_CASES, QUARTZ_CASES, type QuartzCase } from "./quartz-table.ts";

const ms = (iso: string) => Date.parse(iso);

function firesOf(c: QuartzCase): number[] {
  return [...new QuartzCron(c.expression, c.timeZone).between(ms(c.from) - 1, ms(c.to) - 1)];
}

describe("Quartz fire times (the shared table)", () => {
  it.each([...QUARTZ_CASES, ...DST_EDGE_CASES].map((c) => [`${c.expression} (${c.timeZone}): ${c.meaning}`, c] as const))("%s", (_, c) => {
    expect(firesOf(c).map((t) => new Date(t).toISOString())).toEqual(c.fires.map((f) => new Date(f).toISOString()));
  });

  it("knows no fire after the last year of its year field", () => {
    const cron = new QuartzCron("0 0 12 1 1 ? 2026", "UTC");
    expect(cron.next(ms("2026-01-01T12:00:00Z"))).toBeNull();
  });
});

describe("reading Quartz", () => {
  it("keeps Quartz's meaning of each field", () => {
    expect(parseQuartz("0 0 22-2 ? * FRI-MON")).toMatchObject({
      hours: [0, 1, 2, 22, 23],
      dayOfWeek: { kind: "days", days: [1, 2, 6, 7] },
    });
    expect(parseQuartz("0 5/15 * L-2,10W,LW * ?")).toMatchObject({
      minutes: [5, 20, 35, 50],
      dayOfMonth: { days: [], nearestWeekdays: [10], fromLast: [2], nearestWeekdayFromLast: [0] },
    });
    expect(parseQuartz("0 /20 * ? * 6#3")).toMatchObject({ minutes: [0, 20, 40], dayOfWeek: { kind: "nth", day: 6, nth: 3 } });
    expect(parseQuartz("0 0 0 ? * friL")).toMatchObject({ dayOfWeek: { kind: "last", day: 6 } });
  });

  // Each: the expression, where the error is (0-based), and what the message says.
  it.each([
    ["0 0 12 * * 2", 7, /\? in day-of-month or in day-of-week/],
    ["0 0 12 ? * ?", 11, /not both/],
    ["0 0 25 ? * MON", 4, /hours must be 0–23, not 25/],
    ["0 60 12 ? * MON", 2, /minutes must be 0–59/],
    ["0 0 12 ? * 8", 11, /day-of-week must be 1–7/],
    ["0 0 12 ? * 0", 11, /day-of-week must be 1–7/],
    ["0 0 12 ? * MOX", 11, /"MOX" is not a day-of-week/],
    ["0 0 12 ? FOO *", 9, /"FOO" is not a month/],
    ["0 0 12 ? * 2#6", 13, /# is followed by 1–5/],
    ["0 0 12 ? * 2#1,3", 12, /stands alone/],
    ["0 0 12 ? * 2L,3", 12, /L in day-of-week/],
    ["0 0 12 L-31 * ?", 9, /at most 30/],
    ["0 0 12 1-5W * ?", 10, /W follows a single day/],
    ["0 0/0 12 ? * 2", 4, /step in minutes must be 1–59/],
    ["0 0 12 ? * 2 1969", 13, /year must be 1970–2199/],
    ["0 0 12 ? * 2 2030-2029", 18, /must not end before/],
    ["0 0 12 ? *", 10, /6 or 7 fields/],
    ["0 0 12 ? * 2 2026 x", 18, /at most 7 fields/],
    ["0 0 ? ? * 2", 4, /\? is only for day-of-month or day-of-week/],
    ["0 0 1$ ? * 2", 5, /"\$" is not allowed/],
    ["0 1-2-3 * ? * 2", 5, /one "-"/],
  ])("refuses %j at character %i", (text, position, message) => {
    try {
      parseQuartz(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ScheduleError);
      expect((error as ScheduleError).position).toBe(position);
      expect((error as ScheduleError).message).toMatch(message);
      expect((error as ScheduleError).message).toContain(`(at character ${position + 1})`);
    }
  });
});

describe("schedules", () => {
  it("reads Bischeck's three kinds", () => {
    expect(parseSchedule("30S")).toEqual({ kind: "interval", ms: 30_000 });
    expect(parseSchedule(" 1H ")).toEqual({ kind: "interval", ms: 3_600_000 });
    expect(parseSchedule("after:web01-http")).toEqual({ kind: "after", service: "web01-http" });
    expect(parseSchedule("0 15 10 ? * MON-FRI")).toMatchObject({ kind: "cron", expression: "0 15 10 ? * MON-FRI" });
  });

  it.each([
    ["0S", 0, /at least 1S/],
    ["5D", 1, /S, M or H/],
    ["after:", 6, /host-service/],
    ["  0 0 25 ? * MON", 6, /hours/],
    ["", 0, /interval like 30S/],
  ])("refuses %j with the position of the problem", (text, position, message) => {
    const problem = scheduleProblem(text);
    expect(problem?.position).toBe(position);
    expect(problem?.message).toMatch(message);
  });
});
