import { describe, expect, it } from "vitest";
import { dateFacts, type Period, selectPeriod } from "../src/index.ts";
import { period, policy, utc } from "./helpers.ts";

const WED_13_MARCH_2024 = utc(2024, 3, 13); // ISO week 11, day of week 4

/** One period per rule, in an order where no rule's position in the file helps it. */
const byRule: Record<string, Period> = {
  month: period({ months: [{ month: 3, dayOfMonth: null }] }),
  week: period({ weeks: [{ week: 11, dayOfWeek: null }] }),
  dayOfWeek: period({ weeks: [{ week: null, dayOfWeek: 4 }] }),
  dayOfMonth: period({ months: [{ month: null, dayOfMonth: 13 }] }),
  weekAndDayOfWeek: period({ weeks: [{ week: 11, dayOfWeek: 4 }] }),
  monthAndDayOfMonth: period({ months: [{ month: 3, dayOfMonth: 13 }] }),
  default: period(),
};
const precedence = ["monthAndDayOfMonth", "weekAndDayOfWeek", "dayOfMonth", "dayOfWeek", "month", "week", "default"];

describe("period precedence", () => {
  it.each(precedence.map((rule, i) => [rule, precedence.slice(i)] as const))("%s wins over every rule after it", (rule, remaining) => {
    const names = Object.keys(byRule).filter((n) => remaining.includes(n));
    const p = policy({ periods: names.map((n) => byRule[n] as Period) });
    const s = selectPeriod(p, WED_13_MARCH_2024);
    expect(s.kind === "period" && s.rule).toBe(rule);
    expect(s.kind === "period" && s.index).toBe(names.indexOf(rule));
  });

  it("falls through to no period when nothing matches", () => {
    const p = policy({ periods: [byRule.month as Period] });
    expect(selectPeriod(p, utc(2024, 4, 13)).kind).toBe("none");
  });

  it("takes the first match in file order within a rule", () => {
    const p = policy({
      periods: [
        period({ weeks: [{ week: null, dayOfWeek: 2 }] }),
        period({ warning: 1 }),
        period({ warning: 2 }),
        period({ weeks: [{ week: null, dayOfWeek: 4 }] }),
        period({ weeks: [{ week: null, dayOfWeek: 4 }] }),
      ],
    });
    expect(selectPeriod(p, WED_13_MARCH_2024)).toMatchObject({ kind: "period", index: 3, rule: "dayOfWeek" });
    expect(selectPeriod(p, utc(2024, 3, 14))).toMatchObject({ kind: "period", index: 1, rule: "default" });
  });

  it("matches any months/weeks entry of a period (Bischeck's sample: day 1 of a month or a Monday)", () => {
    const sample = period({ months: [{ month: null, dayOfMonth: 1 }], weeks: [{ week: null, dayOfWeek: 2 }] });
    const p = policy({ periods: [sample, period({ warning: 5 })] });
    expect(selectPeriod(p, utc(2024, 3, 1))).toMatchObject({ index: 0, rule: "dayOfMonth" }); // a Friday
    expect(selectPeriod(p, utc(2024, 3, 11))).toMatchObject({ index: 0, rule: "dayOfWeek" }); // a Monday
    expect(selectPeriod(p, utc(2024, 3, 12))).toMatchObject({ index: 1, rule: "default" });
  });

  it("a month rule does not match a month+day entry, nor a week rule a week+day entry", () => {
    const p = policy({ periods: [period({ months: [{ month: 3, dayOfMonth: 14 }], weeks: [{ week: 11, dayOfWeek: 5 }] })] });
    expect(selectPeriod(p, WED_13_MARCH_2024).kind).toBe("none");
  });

  it("checks holidays before every rule", () => {
    const p = policy({ periods: [byRule.monthAndDayOfMonth as Period], holidays: [{ year: 2024, days: ["0313"] }] });
    expect(selectPeriod(p, WED_13_MARCH_2024).kind).toBe("holiday");
  });

  it("reads the date in the policy's time zone", () => {
    const p = policy({ timeZone: "Asia/Tokyo", periods: [byRule.dayOfMonth as Period] });
    expect(selectPeriod(p, Date.UTC(2024, 2, 12, 15, 30)).kind).toBe("period"); // 00:30 on the 13th in Tokyo
    expect(selectPeriod(p, Date.UTC(2024, 2, 12, 14, 30)).kind).toBe("none");
    const la = policy({ timeZone: "America/Los_Angeles", periods: [byRule.dayOfMonth as Period] });
    expect(selectPeriod(la, Date.UTC(2024, 2, 14, 6, 59)).kind).toBe("period"); // 23:59 on the 13th (PDT)
  });
});

describe("calendar facts", () => {
  it.each([
    [2024, 3, 10, 1, 10], // Sunday
    [2024, 3, 16, 7, 11], // Saturday
    [2020, 12, 31, 5, 53],
    [2021, 1, 1, 6, 53],
    [2021, 1, 3, 1, 53],
    [2021, 1, 4, 2, 1],
    [2024, 12, 30, 2, 1],
    [2024, 12, 29, 1, 52],
    [2026, 12, 31, 5, 53],
    [2027, 1, 1, 6, 53],
    [2015, 12, 31, 5, 53],
    [2019, 12, 30, 2, 1],
    [2023, 1, 1, 1, 52],
  ])("%i-%i-%i is day of week %i in ISO week %i", (y, m, d, dow, week) => {
    expect(dateFacts(y, m, d)).toEqual({ year: y, month: m, day: d, dayOfWeek: dow, isoWeek: week });
  });

  it("week 53 and week 1 rules select across the year boundary", () => {
    const p = policy({ periods: [period({ weeks: [{ week: 53, dayOfWeek: null }] }), period({ weeks: [{ week: 1, dayOfWeek: 6 }] })] });
    expect(selectPeriod(p, utc(2021, 1, 1))).toMatchObject({ index: 0, rule: "week" }); // a Friday, but of week 53
    expect(selectPeriod(p, utc(2021, 1, 2))).toMatchObject({ index: 0, rule: "week" });
    expect(selectPeriod(p, utc(2021, 1, 8))).toMatchObject({ index: 1, rule: "weekAndDayOfWeek" });
    expect(selectPeriod(p, utc(2024, 12, 30)).kind).toBe("none"); // week 1 of 2025, a Monday
  });
});
