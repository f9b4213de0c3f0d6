import type { HourEntry, HourLevels, MonthRule, Period, ThresholdPolicy, WeekRule } from "../src/index.ts";

export const c = (value: number): HourEntry => ({ kind: "constant", value });
export const e = (source: string): HourEntry => ({ kind: "expression", source });

export function hours(entries: (number | HourEntry | null)[] | number, levels: HourLevels[] = []): Period["hours"] {
  const list = typeof entries === "number" ? Array<number>(24).fill(entries) : entries;
  return {
    entries: Array.from({ length: 24 }, (_, h) => {
      const v = list[h] ?? null;
      return typeof v === "number" ? c(v) : v;
    }),
    levels: Array.from({ length: 24 }, (_, h) => levels[h] ?? null),
  };
}

export function period(over: Partial<Period> & { months?: MonthRule[]; weeks?: WeekRule[] } = {}): Period {
  return { months: [], weeks: [], calcMethod: ">", warning: 10, critical: 30, hours: hours(11000), ...over };
}

export function policy(over: Partial<ThresholdPolicy> = {}): ThresholdPolicy {
  return { periods: [period()], holidays: [], nullState: "UNKNOWN", maxSoft: 3, timeZone: "UTC", ...over };
}

/** UTC instant for a wall-clock time. */
export const utc = (y: number, m: number, d: number, h = 12, min = 0) => Date.UTC(y, m - 1, d, h, min);
