import * as z from "zod";

/**
 * Tidemark's threshold policy: Bischeck's Twenty4HourThreshold servicedef, kept recognisable.
 * This file is the shared contract between the engine, the Bischeck importer, the API and the UI.
 */

/** `>` the value should be higher than T, `<` lower, `=` near. */
export const calcMethodSchema = z.enum([">", "<", "="]);
export type CalcMethod = z.infer<typeof calcMethodSchema>;

/**
 * One hour entry: a number, a Bischeck expression (source text), or null (no threshold that hour).
 * Constants are stored as numbers so the UI can drag them; expressions keep their source.
 */
export const hourEntrySchema = z.union([
  z.object({ kind: z.literal("constant"), value: z.number().finite() }),
  z.object({ kind: z.literal("expression"), source: z.string().min(1).max(4096) }),
  z.null(),
]);
export type HourEntry = z.infer<typeof hourEntrySchema>;

/**
 * Per-hour warning/critical overrides come from Bischeck's hourinterval form; null means
 * "use the period's levels".
 */
export const hourLevelsSchema = z.object({ warning: z.number().min(0).max(1000), critical: z.number().min(0).max(1000) }).nullable();
export type HourLevels = z.infer<typeof hourLevelsSchema>;

export const hoursSchema = z.object({
  /** Exactly 24 entries, index = hour of day (0..23). */
  entries: z.array(hourEntrySchema).length(24),
  /** Exactly 24 entries; per-hour warning/critical overrides (null = period's levels). */
  levels: z.array(hourLevelsSchema).length(24),
});
export type Hours = z.infer<typeof hoursSchema>;

/**
 * Match rules of a period. Bischeck semantics: empty `months` and `weeks` means default period.
 * A months entry matches on month (1-12) and/or day of month (1-31); a weeks entry on ISO week
 * (1-53) and/or day of week (1 = Sunday … 7 = Saturday). The precedence order between rules
 * (month+dayofmonth, week+dayofweek, dayofmonth, dayofweek, month, week, default) is the engine's.
 */
export const monthRuleSchema = z
  .object({
    month: z.number().int().min(1).max(12).nullable(),
    dayOfMonth: z.number().int().min(1).max(31).nullable(),
  })
  .refine((r) => r.month !== null || r.dayOfMonth !== null, "a months rule needs a month or a day of month");
export const weekRuleSchema = z
  .object({
    week: z.number().int().min(1).max(53).nullable(),
    dayOfWeek: z.number().int().min(1).max(7).nullable(),
  })
  .refine((r) => r.week !== null || r.dayOfWeek !== null, "a weeks rule needs a week or a day of week");
export type MonthRule = z.infer<typeof monthRuleSchema>;
export type WeekRule = z.infer<typeof weekRuleSchema>;

export const periodSchema = z.object({
  months: z.array(monthRuleSchema).max(366),
  weeks: z.array(weekRuleSchema).max(371),
  calcMethod: calcMethodSchema,
  /** Percent, e.g. 10 means 10 %. */
  warning: z.number().min(0).max(1000),
  critical: z.number().min(0).max(1000),
  hours: hoursSchema,
});
export type Period = z.infer<typeof periodSchema>;

/** Holidays: per year, a list of MMDD strings (Bischeck's dayofyear). */
export const holidaySchema = z.object({
  year: z.number().int().min(1970).max(9999),
  days: z.array(z.string().regex(/^(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/, "MMDD")).max(366),
});
export type Holiday = z.infer<typeof holidaySchema>;

export const stateSchema = z.enum(["OK", "WARNING", "CRITICAL", "UNKNOWN"]);
export type State = z.infer<typeof stateSchema>;

/**
 * Where a policy deliberately departs from Bischeck, named so that it is visible and opt-in:
 * - `expressionsAtHourStart`: an expression hour entry is computed with `now` at the start of its
 *   hour (T[h+1] at the next hour's start) instead of at the time of the check, as Bischeck does.
 *   Curves then compute each hour once, and `[-60M]` in hour 10 always means 09:00.
 */
export const deviationSchema = z.enum(["expressionsAtHourStart"]);
export type Deviation = z.infer<typeof deviationSchema>;

export const thresholdPolicySchema = z.object({
  /** Periods in file (precedence) order. */
  periods: z.array(periodSchema).min(1).max(200),
  holidays: z.array(holidaySchema).max(100),
  /** State when the measured value is null (Bischeck default UNKNOWN). */
  nullState: stateSchema.default("UNKNOWN"),
  /** Bischeck's maxsoft (default 3): a problem turns hard on the (maxSoft+1)-th result in a row; 0 = at once. */
  maxSoft: z.number().int().min(0).max(100).default(3),
  /** IANA time zone the hours and days are read in (Bischeck used the JVM's local zone). */
  timeZone: z.string().min(1).max(64).default("UTC"),
  /**
   * Bischeck's notFullListParse (properties.xml, true in its shipped files): nulls are removed from
   * ranges and skipped by list functions instead of making the expression null. A context's
   * explicit `dropNulls` wins.
   */
  notFullListParse: z.boolean().optional(),
  /** Opt-in departures from Bischeck's behaviour (none by default). */
  deviations: z.array(deviationSchema).max(8).optional(),
});
export type ThresholdPolicy = z.infer<typeof thresholdPolicySchema>;
