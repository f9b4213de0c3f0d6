import { QuartzCron } from "./quartz-cron.ts";
import type { Schedule } from "./schedule.ts";

/** When a schedule fires: the agent arms its timers with it and the worker finds due runs with it. */
export interface FireTimes {
  /** The first fire time strictly after `afterMs` (epoch ms), or null when there is none. */
  next(afterMs: number): number | null;
  /** The last fire time at or before `atMs`, where that is cheap to know (intervals). */
  latest?(atMs: number): number;
}

/**
 * Compiled expressions by zone and text. Compiling builds croner patterns; fleets share a few
 * expressions across thousands of services and reload them often. Bounded: cleared past this size.
 */
const compiled = new Map<string, QuartzCron>();
const COMPILED_MAX = 10_000;

function quartzCron(expression: string, timeZone: string): QuartzCron {
  const key = `${timeZone}\0${expression}`;
  let cron = compiled.get(key);
  if (!cron) {
    cron = new QuartzCron(expression, timeZone);
    if (compiled.size >= COMPILED_MAX) compiled.clear();
    compiled.set(key, cron);
  }
  return cron;
}

/**
 * The fire times of an interval or cron schedule; null for run-after schedules (they fire when
 * the service they follow has run). An interval fires at `offsetMs + k × interval`: Bischeck
 * starts an interval at a random offset inside it, and each side chooses that offset its way. A
 * cron expression is read in `timeZone` (the organisation's).
 */
export function fireTimes(schedule: Schedule, options: { timeZone: string; offsetMs?: number }): FireTimes | null {
  switch (schedule.kind) {
    case "interval": {
      const { ms } = schedule;
      const offset = (((options.offsetMs ?? 0) % ms) + ms) % ms;
      return {
        next: (after) => (Math.floor((after - offset) / ms) + 1) * ms + offset,
        latest: (at) => Math.floor((at - offset) / ms) * ms + offset,
      };
    }
    case "cron":
      return quartzCron(schedule.expression, options.timeZone);
    case "after":
      return null;
  }
}
