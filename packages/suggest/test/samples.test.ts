import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { coveredWeeks } from "../src/samples.ts";
import { DAY, HOUR, MINUTE, MONDAY } from "./helpers.ts";

const WEEK = 7 * DAY;
/** The last result stands for one 5-minute bucket. */
const LAST = 5 * MINUTE;

/** Timestamps every `step` over `days` days from a Monday, kept where `keep` says. */
function every(step: number, days: number, keep: (ts: number) => boolean = () => true): { ts: number }[] {
  return Array.from({ length: Math.floor((days * DAY) / step) }, (_, i) => ({ ts: MONDAY + i * step })).filter((o) => keep(o.ts));
}

const hourOf = (ts: number) => new Date(ts).getUTCHours();

describe("coveredWeeks: the calendar weeks a history covers", () => {
  it.each([
    { name: "every 5 minutes for a week", obs: () => every(5 * MINUTE, 7), weeks: 1 },
    { name: "hourly results for two weeks", obs: () => every(HOUR, 14), weeks: (14 * DAY - HOUR + LAST) / WEEK },
    // The metric's own cadence is history: the weeks ahead will be as sparse.
    { name: "a result every two hours for four weeks", obs: () => every(2 * HOUR, 28), weeks: (28 * DAY - 2 * HOUR + LAST) / WEEK },
    {
      name: "a sensor quiet at night (08–18 only) for three weeks",
      obs: () => every(5 * MINUTE, 21, (ts) => hourOf(ts) >= 8 && hourOf(ts) < 18),
      weeks: (21 * DAY - 14 * HOUR) / WEEK,
    },
    { name: "a daily job for four weeks", obs: () => every(DAY, 28), weeks: (27 * DAY + LAST) / WEEK },
    // An outage of three days counts as one.
    {
      name: "four weeks with a three-day outage",
      obs: () => every(5 * MINUTE, 28, (ts) => ts < MONDAY + 10 * DAY || ts >= MONDAY + 13 * DAY),
      weeks: (26 * DAY) / WEEK,
    },
    { name: "nothing", obs: () => [], weeks: 0 },
  ])("$name", ({ obs, weeks }) => {
    expect(coveredWeeks(obs())).toBeCloseTo(weeks, 3);
  });

  it("is the span (plus the last bucket) less every silence beyond its first day", () => {
    const gaps = (max: number) => fc.array(fc.integer({ min: 0, max }), { minLength: 1, maxLength: 300 });
    const from = (steps: number[]) => {
      const obs = [{ ts: MONDAY }];
      for (const g of steps) obs.push({ ts: (obs.at(-1)?.ts ?? MONDAY) + g });
      return obs;
    };
    fc.assert(
      fc.property(gaps(DAY), (steps) => {
        const obs = from(steps);
        expect(coveredWeeks(obs)).toBeCloseTo(((obs.at(-1)?.ts ?? 0) - MONDAY + LAST) / WEEK, 9);
      }),
    );
    fc.assert(
      fc.property(gaps(10 * DAY), (steps) => {
        const obs = from(steps);
        const span = ((obs.at(-1)?.ts ?? 0) - MONDAY + LAST) / WEEK;
        const outages = steps.filter((g) => g > DAY).reduce((a, g) => a + (g - DAY) / WEEK, 0);
        expect(coveredWeeks(obs)).toBeCloseTo(span - outages, 9);
      }),
    );
  });
});
