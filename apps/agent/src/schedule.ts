import { parseSchedule as parseShared, type Schedule } from "@tidemark/schedule";

export type { Schedule };

/**
 * Validated schedules by text. Fleets reuse few schedules across thousands of checks and every
 * configuration push re-validates them all. Bounded: cleared when it grows past this size.
 */
const parsedSchedules = new Map<string, Schedule | Error>();
const PARSED_SCHEDULES_MAX = 10_000;

/**
 * Parses one schedule with @tidemark/schedule, the module the worker and the API use too (Quartz
 * cron with 1 = Sunday, read in the organisation's time zone); throws with a message naming what
 * is wrong and where.
 */
export function parseSchedule(text: string): Schedule {
  let parsed = parsedSchedules.get(text);
  if (parsed === undefined) {
    try {
      parsed = parseShared(text);
    } catch (error) {
      parsed = new Error(`schedule "${text.trim()}": ${error instanceof Error ? error.message : String(error)}`);
    }
    if (parsedSchedules.size >= PARSED_SCHEDULES_MAX) parsedSchedules.clear();
    parsedSchedules.set(text, parsed);
  }
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

/** First run of an interval schedule at a random offset inside the interval, as Bischeck does: spreads the load. */
export function firstDelay(intervalMs: number, random: () => number = Math.random): number {
  return Math.floor(random() * intervalMs);
}

/** Cron runs start within a small random delay so that many agents do not hit a target at the same instant. */
export const CRON_JITTER_MS = 1000;
