/**
 * THE table of Quartz cron expressions and their fire times, written out by hand from Quartz's
 * semantics (org.quartz.CronExpression's documentation and source: day-of-week 1 = Sunday, `?`,
 * `L`, `W`, `LW`, `L-n`, `nL`, `n#k`, overflowing ranges, `a/n` steps). The schedule module, the
 * agent's scheduler and the worker's calculation scheduler are each held to it.
 *
 * Times are wall-clock times with their UTC offset. Europe/Stockholm changes from +01:00 to
 * +02:00 at 02:00 on Sunday 29 March 2026 and back at 03:00 on Sunday 25 October 2026.
 * `fires` lists every fire time in [from, to).
 */
export interface QuartzCase {
  expression: string;
  meaning: string;
  timeZone: string;
  from: string;
  to: string;
  fires: string[];
}

const YEAR_2026 = { from: "2026-01-01T00:00:00+01:00", to: "2027-01-01T00:00:00+01:00" };
const STOCKHOLM = "Europe/Stockholm";

/** Twelve monthly fires in 2026 at `time`, on the given days of January … December. */
function monthly(days: number[], time: string): string[] {
  return days.map((day, i) => {
    const month = i + 1;
    // CEST from 29 March to 25 October.
    const summer = (month > 3 || (month === 3 && day >= 29)) && (month < 10 || (month === 10 && day < 25));
    return `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}T${time}${summer ? "+02:00" : "+01:00"}`;
  });
}

export const QUARTZ_CASES: QuartzCase[] = [
  {
    expression: "0 0 12 ? * 2",
    meaning: "every Monday at noon (2 is Monday in Quartz; croner's default would read Tuesday)",
    timeZone: STOCKHOLM,
    from: "2026-03-16T00:00:00+01:00",
    to: "2026-04-14T00:00:00+02:00",
    fires: [
      "2026-03-16T12:00:00+01:00",
      "2026-03-23T12:00:00+01:00",
      "2026-03-30T12:00:00+02:00",
      "2026-04-06T12:00:00+02:00",
      "2026-04-13T12:00:00+02:00",
    ],
  },
  {
    expression: "0 0 12 ? * 2",
    meaning: "the same in UTC: noon UTC on Mondays",
    timeZone: "UTC",
    from: "2026-03-20T00:00:00Z",
    to: "2026-04-03T00:00:00Z",
    fires: ["2026-03-23T12:00:00Z", "2026-03-30T12:00:00Z"],
  },
  {
    expression: "0 15 10 ? * 6L",
    meaning: "10:15 on the last Friday of every month",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: monthly([30, 27, 27, 24, 29, 26, 31, 28, 25, 30, 27, 25], "10:15:00"),
  },
  {
    expression: "0 0 8 ? * 2#1",
    meaning: "08:00 on the first Monday of every month",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: monthly([5, 2, 2, 6, 4, 1, 6, 3, 7, 5, 2, 7], "08:00:00"),
  },
  {
    expression: "0 0 9 ? jan-mar,NOV mon#2 2026",
    meaning: "09:00 on the second Monday of January to March and November 2026 (names in any case)",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: ["2026-01-12T09:00:00+01:00", "2026-02-09T09:00:00+01:00", "2026-03-09T09:00:00+01:00", "2026-11-09T09:00:00+01:00"],
  },
  {
    expression: "0 0 12 L * ?",
    meaning: "noon on the last day of every month",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: monthly([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], "12:00:00"),
  },
  {
    expression: "0 0 12 L-3 * ?",
    meaning: "noon three days before the last day of every month",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: monthly([28, 25, 28, 27, 28, 27, 28, 28, 27, 28, 27, 28], "12:00:00"),
  },
  {
    expression: "0 0 12 L-3 2 ? 2027-2028",
    meaning: "noon three days before the end of February in 2027 (28 days) and 2028 (a leap year)",
    timeZone: STOCKHOLM,
    from: "2026-01-01T00:00:00+01:00",
    to: "2030-01-01T00:00:00+01:00",
    fires: ["2027-02-25T12:00:00+01:00", "2028-02-26T12:00:00+01:00"],
  },
  {
    expression: "0 0 12 LW * ?",
    meaning: "noon on the last weekday of every month",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: monthly([30, 27, 31, 30, 29, 30, 31, 31, 30, 30, 30, 31], "12:00:00"),
  },
  {
    expression: "0 0 9 1W * ?",
    meaning: "09:00 on the weekday nearest the 1st, never in the month before (a Saturday 1st moves to Monday the 3rd)",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: monthly([1, 2, 2, 1, 1, 1, 1, 3, 1, 1, 2, 1], "09:00:00"),
  },
  {
    expression: "0 0 9 15W * ?",
    meaning: "09:00 on the weekday nearest the 15th (Saturday → Friday 14th, Sunday → Monday 16th)",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: monthly([15, 16, 16, 15, 15, 15, 15, 14, 15, 15, 16, 15], "09:00:00"),
  },
  {
    expression: "0 0 12 1,15,L * ?",
    meaning: "noon on the 1st, the 15th and the last day (a list mixing days and L)",
    timeZone: STOCKHOLM,
    from: "2026-02-01T00:00:00+01:00",
    to: "2026-04-01T00:00:00+02:00",
    fires: [
      "2026-02-01T12:00:00+01:00",
      "2026-02-15T12:00:00+01:00",
      "2026-02-28T12:00:00+01:00",
      "2026-03-01T12:00:00+01:00",
      "2026-03-15T12:00:00+01:00",
      "2026-03-31T12:00:00+02:00",
    ],
  },
  {
    expression: "0 15 10 ? * MON-FRI",
    meaning: "10:15 on weekdays, across the change to summer time",
    timeZone: STOCKHOLM,
    from: "2026-03-26T00:00:00+01:00",
    to: "2026-04-02T00:00:00+02:00",
    fires: [
      "2026-03-26T10:15:00+01:00",
      "2026-03-27T10:15:00+01:00",
      "2026-03-30T10:15:00+02:00",
      "2026-03-31T10:15:00+02:00",
      "2026-04-01T10:15:00+02:00",
    ],
  },
  {
    expression: "0 0 6 ? * FRI-MON",
    meaning: "06:00 Friday to Monday: an overflowing day-of-week range",
    timeZone: STOCKHOLM,
    from: "2026-03-26T00:00:00+01:00",
    to: "2026-04-04T00:00:00+02:00",
    fires: [
      "2026-03-27T06:00:00+01:00",
      "2026-03-28T06:00:00+01:00",
      "2026-03-29T06:00:00+02:00",
      "2026-03-30T06:00:00+02:00",
      "2026-04-03T06:00:00+02:00",
    ],
  },
  {
    expression: "0 0 23-1 * * ?",
    meaning: "23:00, 00:00 and 01:00 every day: an overflowing hour range, across the change back to winter time",
    timeZone: STOCKHOLM,
    from: "2026-10-24T12:00:00+02:00",
    to: "2026-10-26T12:00:00+01:00",
    fires: [
      "2026-10-24T23:00:00+02:00",
      "2026-10-25T00:00:00+02:00",
      "2026-10-25T01:00:00+02:00",
      "2026-10-25T23:00:00+01:00",
      "2026-10-26T00:00:00+01:00",
      "2026-10-26T01:00:00+01:00",
    ],
  },
  {
    expression: "0 0/20 8-9 ? * 1",
    meaning: "every 20 minutes from 08:00 to 09:40 on Sundays, on the day summer time starts",
    timeZone: STOCKHOLM,
    from: "2026-03-29T00:00:00+01:00",
    to: "2026-03-30T00:00:00+02:00",
    fires: ["08:00", "08:20", "08:40", "09:00", "09:20", "09:40"].map((t) => `2026-03-29T${t}:00+02:00`),
  },
  {
    expression: "10/25 0 12 1 JAN,JUL ?",
    meaning: "seconds 10 and 35 (a/n starts at a) past noon on 1 January and 1 July",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: ["2026-01-01T12:00:10+01:00", "2026-01-01T12:00:35+01:00", "2026-07-01T12:00:10+02:00", "2026-07-01T12:00:35+02:00"],
  },
  {
    expression: "0 0 12 1 7/6 ?",
    meaning: "7/6 in the month field is July only (13 is past December), as Quartz's documentation warns",
    timeZone: STOCKHOLM,
    ...YEAR_2026,
    fires: ["2026-07-01T12:00:00+02:00"],
  },
  {
    expression: "0 0 18 ? * L",
    meaning: "18:00 on Saturdays (L alone in day-of-week is 7)",
    timeZone: STOCKHOLM,
    from: "2026-03-20T00:00:00+01:00",
    to: "2026-04-05T00:00:00+02:00",
    fires: ["2026-03-21T18:00:00+01:00", "2026-03-28T18:00:00+01:00", "2026-04-04T18:00:00+02:00"],
  },
  {
    expression: "0 30 3 ? * SUN",
    meaning: "03:30 on Sundays: both days the clocks change, 03:30 happens once",
    timeZone: STOCKHOLM,
    from: "2026-03-28T00:00:00+01:00",
    to: "2026-03-30T00:00:00+02:00",
    fires: ["2026-03-29T03:30:00+02:00"],
  },
  {
    expression: "0 30 3 ? * SUN",
    meaning: "03:30 on the Sunday summer time ends",
    timeZone: STOCKHOLM,
    from: "2026-10-24T00:00:00+02:00",
    to: "2026-10-26T00:00:00+01:00",
    fires: ["2026-10-25T03:30:00+01:00"],
  },
  {
    expression: "0 0/30 2 * * ?",
    meaning: "every half hour of 02:xx: none on 29 March, when 02:xx does not exist",
    timeZone: STOCKHOLM,
    from: "2026-03-28T12:00:00+01:00",
    to: "2026-03-29T12:00:00+02:00",
    fires: [],
  },
];

/**
 * Times that fall in a DST gap or happen twice. Quartz leaves these to java.util.Calendar and its
 * documentation only warns that they "can cause a skip or a repeat"; Tidemark's rule (croner's) is
 * stated here and held like the rest: a fixed time in the gap runs at the first valid time after
 * it, a fixed time that happens twice runs once (the first), and a time with a step or list runs at
 * every real instant whose wall clock matches.
 */
export const DST_EDGE_CASES: QuartzCase[] = [
  {
    expression: "0 30 2 * * ?",
    meaning: "02:30 does not exist on 29 March: runs at 03:00, when summer time begins",
    timeZone: STOCKHOLM,
    from: "2026-03-28T12:00:00+01:00",
    to: "2026-03-30T12:00:00+02:00",
    fires: ["2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00"],
  },
  {
    expression: "0 30 2 * * ?",
    meaning: "02:30 happens twice on 25 October: runs once, the first time",
    timeZone: STOCKHOLM,
    from: "2026-10-24T12:00:00+02:00",
    to: "2026-10-26T12:00:00+01:00",
    fires: ["2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"],
  },
  {
    expression: "0 0/30 2 * * ?",
    meaning: "every half hour of 02:xx: both occurrences on 25 October",
    timeZone: STOCKHOLM,
    from: "2026-10-24T12:00:00+02:00",
    to: "2026-10-25T12:00:00+01:00",
    fires: ["2026-10-25T02:00:00+02:00", "2026-10-25T02:30:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T02:30:00+01:00"],
  },
  {
    expression: "0 0/30 2 * * ?",
    meaning: "every half hour of 02:xx: none on 29 March, when 02:xx does not exist",
    timeZone: STOCKHOLM,
    from: "2026-03-28T12:00:00+01:00",
    to: "2026-03-29T12:00:00+02:00",
    fires: [],
  },
  {
    expression: "0 0/30 2 * * ?",
    meaning: "every half hour of 02:xx: none on 29 March, when 02:xx does not exist",
    timeZone: STOCKHOLM,
    from: "2026-03-28T12:00:00+01:00",
    to: "2026-03-29T12:00:00+02:00",
    fires: [],
  },
];
