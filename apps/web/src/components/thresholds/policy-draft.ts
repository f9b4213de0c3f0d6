import { isTimeZone } from "@tidemark/model";
import type { HourEntry, MonthRule, Period, ThresholdPolicy, WeekRule } from "@tidemark/thresholds";
import { thresholdPolicySchema } from "@tidemark/thresholds";

/** Editing a threshold policy in the browser: immutable updates and the form's validation. */

export const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
export const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

export function emptyPeriod(): Period {
  return {
    months: [],
    weeks: [],
    calcMethod: "<",
    warning: 10,
    critical: 30,
    hours: { entries: Array.from({ length: 24 }, () => null), levels: Array.from({ length: 24 }, () => null) },
  };
}

export function emptyPolicy(): ThresholdPolicy {
  return { periods: [emptyPeriod()], holidays: [], nullState: "UNKNOWN", maxSoft: 3, timeZone: "UTC" };
}

export function updatePeriod(policy: ThresholdPolicy, index: number, change: (p: Period) => Period): ThresholdPolicy {
  return { ...policy, periods: policy.periods.map((p, i) => (i === index ? change(p) : p)) };
}

export function setHourEntry(period: Period, hour: number, entry: HourEntry): Period {
  return { ...period, hours: { ...period.hours, entries: period.hours.entries.map((e, h) => (h === hour ? entry : e)) } };
}

export function movePeriod(policy: ThresholdPolicy, index: number, by: -1 | 1): ThresholdPolicy {
  const to = index + by;
  if (to < 0 || to >= policy.periods.length) return policy;
  const periods = [...policy.periods];
  [periods[index], periods[to]] = [periods[to] as Period, periods[index] as Period];
  return { ...policy, periods };
}

function describeMonthRule(r: MonthRule): string {
  if (r.month !== null && r.dayOfMonth !== null) return `${MONTHS[r.month - 1]} ${r.dayOfMonth}`;
  if (r.month !== null) return `every day of ${MONTHS[r.month - 1]}`;
  return `day ${r.dayOfMonth} of every month`;
}

function describeWeekRule(r: WeekRule): string {
  if (r.week !== null && r.dayOfWeek !== null) return `${WEEKDAYS[r.dayOfWeek - 1]} of week ${r.week}`;
  if (r.week !== null) return `week ${r.week}`;
  return `${WEEKDAYS[(r.dayOfWeek ?? 1) - 1]}`;
}

/** "Sat, Sun" / "Dec 24" / "default": what a period matches, for the period list. */
export function describeRules(period: Period): string {
  const parts = [...period.months.map(describeMonthRule), ...period.weeks.map(describeWeekRule)];
  return parts.length === 0 ? "default (every other day)" : parts.join(", ");
}

export type FieldErrors = Map<string, string>;

/** The same zod schema the API validates with; issues keyed by their path, e.g. `periods.0.warning`. */
export function validatePolicy(policy: ThresholdPolicy): { ok: true; policy: ThresholdPolicy } | { ok: false; errors: FieldErrors } {
  const parsed = thresholdPolicySchema.safeParse(policy);
  // The API refuses zones the engine cannot read hours in; so does the form.
  const zoneKnown = isTimeZone(policy.timeZone);
  if (parsed.success && zoneKnown) return { ok: true, policy: parsed.data };
  const errors: FieldErrors = new Map();
  if (!zoneKnown) errors.set("timeZone", "unknown time zone");
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const key = issue.path.join(".");
    if (!errors.has(key)) errors.set(key, issue.message);
  }
  return { ok: false, errors };
}

/** A number typed into a field, or null while it is empty or not a number yet. */
export function parseNumber(text: string): number | null {
  if (text.trim() === "") return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}
