import { type FireTimes, fireTimes, parseSchedule as parseShared } from "@tidemark/schedule";

/**
 * A calculation's schedule as the worker runs it: fire times from @tidemark/schedule (the module
 * the agent and the API use: intervals, and Quartz cron read in the organisation's time zone),
 * or `after:host-service`.
 */
export type Schedule = { kind: "timed"; times: FireTimes } | { kind: "after"; service: string };

/**
 * Bischeck starts an interval schedule at a random offset inside the interval, so that services
 * do not all run at once. The offset here is derived from the service id, so every worker
 * computes the same due times and a run is claimed once. It is a whole number of seconds
 * (intervals are too): the runs of an organisation due at one instant are one claim
 * (claimCalculationRuns), so services spread over the seconds of their interval, not its
 * milliseconds, make one claim a second instead of one a run.
 */
function offsetFor(id: string): number {
  let hash = 2_166_136_261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16_777_619) >>> 0;
  return hash * 1000;
}

export function parseSchedule(text: string, serviceId: string, timeZone = "UTC"): Schedule {
  const schedule = parseShared(text);
  if (schedule.kind === "after") return schedule;
  return { kind: "timed", times: fireTimes(schedule, { timeZone, offsetMs: offsetFor(serviceId) })! };
}

/** The latest due time in (since, now], or null when nothing fell due (and for run-after schedules). */
export function latestDue(schedule: Schedule, now: number, since: number): number | null {
  if (schedule.kind === "after") return null;
  if (schedule.times.latest) {
    const latest = schedule.times.latest(now);
    return latest > since ? latest : null;
  }
  let due: number | null = null;
  for (let next = schedule.times.next(since); next !== null && next <= now; next = schedule.times.next(next)) due = next;
  return due;
}

/**
 * The first instant after `since` at which the schedule falls due (null: never, as for run-after
 * schedules). `latestDue(schedule, now, since)` finds a run exactly when this is at or before
 * `now`, so the scheduler need not look at a service again until then.
 */
export function nextDue(schedule: Schedule, since: number): number | null {
  return schedule.kind === "after" ? null : schedule.times.next(since);
}
