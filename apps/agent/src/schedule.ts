import { intervalMs } from "@tidemark/model";
import { Cron } from "croner";

/** One schedule of a check, as the model writes it: `30S`/`5M`/`1H`, a Quartz cron expression, or `after:host-service`. */
export type Schedule = { kind: "interval"; ms: number } | { kind: "cron"; expression: string } | { kind: "after"; checkId: string };

/** Quartz: seconds first, optional year, `?`, and day-of-week 1 = Sunday. */
export const QUARTZ_OPTIONS = { mode: "6-or-7-parts", alternativeWeekdays: true, paused: true } as const;

/**
 * Validated schedules by text. Checking a cron expression means building a croner job, which
 * allocates a lot; fleets reuse few expressions across thousands of checks and every
 * configuration push re-validates them all. Bounded: cleared when it grows past this size.
 */
const parsedSchedules = new Map<string, Schedule | Error>();
const PARSED_SCHEDULES_MAX = 10_000;

/** Parses and validates one schedule; throws with a message naming what is wrong. */
export function parseSchedule(text: string): Schedule {
  let parsed = parsedSchedules.get(text);
  if (parsed === undefined) {
    try {
      parsed = parseScheduleUncached(text);
    } catch (error) {
      parsed = error instanceof Error ? error : new Error(String(error));
    }
    if (parsedSchedules.size >= PARSED_SCHEDULES_MAX) parsedSchedules.clear();
    parsedSchedules.set(text, parsed);
  }
  if (parsed instanceof Error) throw parsed;
  return parsed;
}

function parseScheduleUncached(text: string): Schedule {
  const s = text.trim();
  const ms = intervalMs(s);
  if (ms !== null) {
    if (ms < 1000) throw new Error(`schedule ${s}: an interval must be at least 1S`);
    return { kind: "interval", ms };
  }
  if (s.startsWith("after:")) {
    const checkId = s.slice("after:".length);
    if (!checkId) throw new Error(`schedule ${s}: after: needs host-service`);
    return { kind: "after", checkId };
  }
  try {
    new Cron(s, QUARTZ_OPTIONS).stop();
  } catch (error) {
    throw new Error(`schedule "${s}" is not a Quartz cron expression: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { kind: "cron", expression: s };
}

/** First run of an interval schedule at a random offset inside the interval, as Bischeck does: spreads the load. */
export function firstDelay(intervalMs: number, random: () => number = Math.random): number {
  return Math.floor(random() * intervalMs);
}

/** Cron runs start within a small random delay so that many agents do not hit a target at the same instant. */
export const CRON_JITTER_MS = 1000;
