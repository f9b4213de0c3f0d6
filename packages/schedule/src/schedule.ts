import { ScheduleError } from "./error.ts";
import { parseQuartz, type QuartzFields } from "./quartz.ts";

/**
 * A service's schedule, Bischeck's three kinds: an interval (`30S`, `5M`, `1H`), a Quartz cron
 * expression (`0 15 10 ? * MON-FRI`), or "run after service host-service", which Tidemark writes
 * `after:host-service`.
 */
export type Schedule =
  | { kind: "interval"; ms: number }
  | { kind: "cron"; expression: string; fields: QuartzFields }
  | { kind: "after"; service: string };

const INTERVAL_UNIT_MS = { S: 1000, M: 60_000, H: 3_600_000 } as const;

/** The length of an interval schedule (`30S`, `5M`, `1H`) in ms; null for cron and run-after schedules. */
export function intervalMs(schedule: string): number | null {
  const match = /^(\d+)([SMH])$/.exec(schedule.trim());
  return match ? Number(match[1]) * INTERVAL_UNIT_MS[match[2] as keyof typeof INTERVAL_UNIT_MS] : null;
}

/** Reads one schedule; throws a ScheduleError with the position of the problem. */
export function parseSchedule(text: string): Schedule {
  const lead = text.length - text.trimStart().length;
  const s = text.trim();
  if (s === "") throw new ScheduleError("a schedule is an interval like 30S, 5M, 1H, a Quartz cron expression, or after:host-service", 0);
  const ms = intervalMs(s);
  if (ms !== null) {
    if (ms < 1000) throw new ScheduleError("an interval is at least 1S", lead);
    return { kind: "interval", ms };
  }
  if (/^after:/i.test(s)) {
    const service = s.slice("after:".length);
    if (!/^\S+-\S+$/.test(service)) throw new ScheduleError("after: names a service as host-service", lead + "after:".length);
    return { kind: "after", service };
  }
  if (/^\d+\s*[A-Za-z]*$/.test(s) && !/\s/.test(s))
    throw new ScheduleError("an interval is a number and S, M or H (30S, 5M, 1H)", lead + s.search(/\D|$/));
  try {
    return { kind: "cron", expression: s, fields: parseQuartz(s) };
  } catch (error) {
    if (error instanceof ScheduleError) throw new ScheduleError(error.reason, error.position + lead);
    throw error;
  }
}

/** What is wrong with a schedule, or null when it is fine (for zod refinements and forms). */
export function scheduleProblem(text: string): { message: string; reason: string; position: number } | null {
  try {
    parseSchedule(text);
    return null;
  } catch (error) {
    if (error instanceof ScheduleError) return { message: error.message, reason: error.reason, position: error.position };
    throw error;
  }
}
