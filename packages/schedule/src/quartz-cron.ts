import { Cron } from "croner";
import { parseQuartz, QUARTZ_MAX_YEAR, QUARTZ_MIN_YEAR, type QuartzFields } from "./quartz.ts";

/**
 * Fire times of a Quartz cron expression in a time zone. croner does the calendar and time-zone
 * arithmetic (and DST); what croner cannot say in one pattern is written as several: Quartz's
 * `L-n` and `L-nW` name a different day in months of different lengths, so each month length
 * (31, 30, February in leap and other years) gets its own croner pattern with those days spelt
 * out, and the fire time is the earliest of them. Every other field reaches croner as explicit
 * lists, already in Quartz's meaning (overflowing ranges and steps expanded here).
 */

const list = (values: readonly number[]) => values.join(",");
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

const MONTHS_OF_31 = [1, 3, 5, 7, 8, 10, 12];
const MONTHS_OF_30 = [4, 6, 9, 11];
const ALL_YEARS = range(QUARTZ_MIN_YEAR, QUARTZ_MAX_YEAR);

/** The months (of those given) and years (null: any) in which a month has `length` days. */
function monthLengthClasses(months: readonly number[], years: readonly number[] | null) {
  const feb = months.includes(2) ? [2] : [];
  const inYears = (leap: boolean) => (years ?? ALL_YEARS).filter((y) => isLeap(y) === leap);
  return [
    { length: 31, months: months.filter((m) => MONTHS_OF_31.includes(m)), years },
    { length: 30, months: months.filter((m) => MONTHS_OF_30.includes(m)), years },
    { length: 29, months: feb, years: inYears(true) },
    { length: 28, months: feb, years: inYears(false) },
  ].filter((c) => c.months.length > 0 && (c.years === null || c.years.length > 0));
}

/** croner patterns (7 fields, Quartz day-of-week numbering) whose union is the expression. */
export function cronerPatterns(fields: QuartzFields): string[] {
  const time = `${list(fields.seconds)} ${list(fields.minutes)} ${list(fields.hours)}`;
  const pattern = (dom: string, months: readonly number[], dow: string, years: readonly number[] | null) =>
    `${time} ${dom} ${list(months)} ${dow} ${years === null ? "*" : list(years)}`;
  const dow = fields.dayOfWeek;
  if (dow !== null) {
    const text = dow.kind === "days" ? list(dow.days) : dow.kind === "nth" ? `${dow.day}#${dow.nth}` : `${dow.day}L`;
    return [pattern("*", fields.months, text, fields.years)];
  }
  const dom = fields.dayOfMonth!;
  const patterns: string[] = [];
  // What means the same day in every month: croner's own days, nW and L.
  const sameEveryMonth =
    dom.days.length === 31
      ? ["*"]
      : [...dom.days.map(String), ...dom.nearestWeekdays.map((d) => `${d}W`), ...(dom.fromLast.includes(0) ? ["L"] : [])];
  if (sameEveryMonth.length > 0) patterns.push(pattern(sameEveryMonth.join(","), fields.months, "*", fields.years));
  const fromLast = dom.fromLast.filter((offset) => offset > 0);
  if (fromLast.length + dom.nearestWeekdayFromLast.length > 0) {
    for (const c of monthLengthClasses(fields.months, fields.years)) {
      const days = [
        ...fromLast.map((offset) => c.length - offset).filter((d) => d >= 1),
        ...dom.nearestWeekdayFromLast
          .map((offset) => c.length - offset)
          .filter((d) => d >= 1)
          .map((d) => `${d}W`),
      ];
      if (days.length > 0) patterns.push(pattern(days.join(","), c.months, "*", c.years));
    }
  }
  return patterns;
}

/** Throws a RangeError naming the zone when it is not an IANA time zone this runtime knows. */
export function assertTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
  } catch {
    throw new RangeError(`"${timeZone}" is not a time zone (an IANA name such as UTC or Europe/Stockholm)`);
  }
}

export function isTimeZone(timeZone: string): boolean {
  try {
    assertTimeZone(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** A Quartz expression compiled for one time zone. Holds no timers. */
export class QuartzCron {
  readonly fields: QuartzFields;
  private readonly jobs: Cron[];

  constructor(
    readonly expression: string,
    readonly timeZone = "UTC",
  ) {
    assertTimeZone(timeZone);
    this.fields = parseQuartz(expression);
    this.jobs = cronerPatterns(this.fields).map(
      (p) => new Cron(p, { paused: true, mode: "7-part", alternativeWeekdays: true, timezone: timeZone }),
    );
  }

  /** The first fire time strictly after `afterMs` (epoch ms), or null when there is none. */
  next(afterMs: number): number | null {
    let best: number | null = null;
    const after = new Date(afterMs);
    for (const job of this.jobs) {
      const t = job.nextRun(after)?.getTime();
      if (t !== undefined && (best === null || t < best)) best = t;
    }
    return best;
  }

  /** The fire times in (fromMs, toMs]. */
  *between(fromMs: number, toMs: number): Generator<number> {
    for (let t = this.next(fromMs); t !== null && t <= toMs; t = this.next(t)) yield t;
  }
}
