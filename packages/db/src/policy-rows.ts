import type { Period, ThresholdPolicy } from "@tidemark/thresholds/policy";
import type { PrismaTransaction, PrismaTypes } from "./prisma.ts";

/** Threshold policies as rows (policies, periods, holiday calendars) and back. */

type Tx = PrismaTransaction;

const CALC_TO_DB = { ">": "higher", "<": "lower", "=": "near" } as const;
const CALC_FROM_DB = { higher: ">", lower: "<", near: "=" } as const;

export function periodToRow(period: Period, position: number) {
  return {
    position,
    monthRules: period.months,
    weekRules: period.weeks,
    calcMethod: CALC_TO_DB[period.calcMethod],
    warning: period.warning,
    critical: period.critical,
    hours: period.hours.entries,
    hourLevels: period.hours.levels,
  };
}

type PolicyWithPeriods = PrismaTypes.Prisma.ThresholdPolicyGetPayload<{
  include: { periods: true; holidayCalendar: { include: { days: true } } };
}>;

export function policyFromRow(row: PolicyWithPeriods): ThresholdPolicy {
  const byYear = new Map<number, string[]>();
  for (const d of row.holidayCalendar?.days ?? []) {
    const days = byYear.get(d.year);
    if (days) days.push(d.monthDay);
    else byYear.set(d.year, [d.monthDay]);
  }
  return {
    periods: [...row.periods]
      .sort((a, b) => a.position - b.position)
      .map((p) => ({
        months: p.monthRules as Period["months"],
        weeks: p.weekRules as Period["weeks"],
        calcMethod: CALC_FROM_DB[p.calcMethod],
        warning: p.warning,
        critical: p.critical,
        hours: { entries: p.hours as Period["hours"]["entries"], levels: p.hourLevels as Period["hours"]["levels"] },
      })),
    holidays: [...byYear].map(([year, days]) => ({ year, days: days.sort() })),
    nullState: row.nullState,
    maxSoft: row.maxSoft,
    timeZone: row.timeZone,
  };
}

export const policyInclude = { periods: true, holidayCalendar: { include: { days: true } } } as const;

/** Creates a policy (and its holiday calendar when it has holidays) inside a transaction. */
export async function createPolicy(
  tx: Tx,
  organizationId: string,
  policy: ThresholdPolicy,
  opts: { name?: string | null; isTemplate?: boolean } = {},
): Promise<string> {
  let holidayCalendarId: string | null = null;
  if (policy.holidays.length > 0) {
    const calendar = await tx.holidayCalendar.create({
      data: {
        organizationId,
        name: `${opts.name ?? "holidays"}-${crypto.randomUUID().slice(0, 8)}`,
        days: { create: policy.holidays.flatMap((h) => h.days.map((monthDay) => ({ year: h.year, monthDay }))) },
      },
    });
    holidayCalendarId = calendar.id;
  }
  const created = await tx.thresholdPolicy.create({
    data: {
      organizationId,
      name: opts.name ?? null,
      isTemplate: opts.isTemplate ?? false,
      nullState: policy.nullState,
      maxSoft: policy.maxSoft,
      timeZone: policy.timeZone,
      holidayCalendarId,
      periods: { create: policy.periods.map(periodToRow) },
    },
  });
  return created.id;
}
