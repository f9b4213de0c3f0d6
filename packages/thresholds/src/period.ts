import { type DateFacts, dateFacts, localTime } from "./calendar.ts";
import type { Period, ThresholdPolicy } from "./policy.ts";

/** Which of Bischeck's seven rules picked the period, in precedence order. */
export type PeriodRule = "monthAndDayOfMonth" | "weekAndDayOfWeek" | "dayOfMonth" | "dayOfWeek" | "month" | "week" | "default";

export type PeriodSelection =
  | { readonly kind: "holiday"; readonly date: DateFacts }
  | { readonly kind: "none"; readonly date: DateFacts }
  | { readonly kind: "period"; readonly index: number; readonly period: Period; readonly rule: PeriodRule; readonly date: DateFacts };

type Matcher = (period: Period, d: DateFacts) => boolean;

/** Bischeck's findPeriod: each rule scans all periods in file order before the next rule is tried. */
const RULES: readonly (readonly [PeriodRule, Matcher])[] = [
  ["monthAndDayOfMonth", (p, d) => p.months.some((r) => r.month === d.month && r.dayOfMonth === d.day)],
  ["weekAndDayOfWeek", (p, d) => p.weeks.some((r) => r.week === d.isoWeek && r.dayOfWeek === d.dayOfWeek)],
  ["dayOfMonth", (p, d) => p.months.some((r) => r.month === null && r.dayOfMonth === d.day)],
  ["dayOfWeek", (p, d) => p.weeks.some((r) => r.week === null && r.dayOfWeek === d.dayOfWeek)],
  ["month", (p, d) => p.months.some((r) => r.month === d.month && r.dayOfMonth === null)],
  ["week", (p, d) => p.weeks.some((r) => r.week === d.isoWeek && r.dayOfWeek === null)],
  ["default", (p) => p.months.length === 0 && p.weeks.length === 0],
];

const holidaySets = new WeakMap<ThresholdPolicy, ReadonlySet<string>>();

function holidays(policy: ThresholdPolicy): ReadonlySet<string> {
  let set = holidaySets.get(policy);
  if (set === undefined) {
    set = new Set(policy.holidays.flatMap((h) => h.days.map((mmdd) => `${h.year}${mmdd}`)));
    holidaySets.set(policy, set);
  }
  return set;
}

function holidayKey(d: DateFacts): string {
  return `${d.year}${String(d.month).padStart(2, "0")}${String(d.day).padStart(2, "0")}`;
}

/** The period for a local calendar date: holidays first, then the rules in precedence order. */
export function selectPeriodForDate(policy: ThresholdPolicy, date: DateFacts): PeriodSelection {
  if (holidays(policy).has(holidayKey(date))) return { kind: "holiday", date };
  for (const [rule, matches] of RULES) {
    const index = policy.periods.findIndex((p) => matches(p, date));
    if (index >= 0) return { kind: "period", index, period: policy.periods[index] as Period, rule, date };
  }
  return { kind: "none", date };
}

/** The last date asked per policy: a worker evaluates a policy for the same date many times over. */
const lastSelection = new WeakMap<ThresholdPolicy, PeriodSelection>();

/** selectPeriodForDate, remembered per policy for the last date asked. */
export function periodForDate(policy: ThresholdPolicy, year: number, month: number, day: number): PeriodSelection {
  const seen = lastSelection.get(policy);
  if (seen !== undefined && seen.date.day === day && seen.date.month === month && seen.date.year === year) return seen;
  const selection = selectPeriodForDate(policy, dateFacts(year, month, day));
  lastSelection.set(policy, selection);
  return selection;
}

/** The period in force at instant `at` (epoch ms), with the date read in the policy's time zone. */
export function selectPeriod(policy: ThresholdPolicy, at: number): PeriodSelection {
  const t = localTime(policy.timeZone, at);
  return periodForDate(policy, t.year, t.month, t.day);
}
