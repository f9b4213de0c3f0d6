import { intervalMs } from "@tidemark/model";
import { Cron } from "croner";

/**
 * A service's schedule, Bischeck's three kinds: an interval (`30S`, `5M`, `1H`), a Quartz cron
 * expression (`0 15 10 ? * MON-FRI`, read in UTC), or `after:host-service`.
 */
export type Schedule =
  | { kind: "interval"; periodMs: number; offsetMs: number }
  | { kind: "cron"; cron: Cron }
  | { kind: "after"; service: string };

/**
 * Bischeck starts an interval schedule at a random offset inside the interval, so that services
 * do not all run at once. The offset here is derived from the service id, so every worker
 * computes the same due times and a run is claimed once.
 */
function offsetFor(id: string, periodMs: number): number {
  let hash = 2_166_136_261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16_777_619) >>> 0;
  return hash % periodMs;
}

export function parseSchedule(text: string, serviceId: string): Schedule {
  const periodMs = intervalMs(text);
  if (periodMs !== null) {
    if (periodMs <= 0) throw new Error(`schedule ${text}: the interval must be positive`);
    return { kind: "interval", periodMs, offsetMs: offsetFor(serviceId, periodMs) };
  }
  const after = /^after:(\S+)$/.exec(text.trim());
  if (after) return { kind: "after", service: after[1]! };
  return { kind: "cron", cron: new Cron(text.trim(), { paused: true, timezone: "UTC" }) };
}

/** The latest due time at or before `now`, or null (cron that has not fired since `since`). */
export function latestDue(schedule: Schedule, now: number, since: number): number | null {
  switch (schedule.kind) {
    case "interval": {
      const { periodMs, offsetMs } = schedule;
      return Math.floor((now - offsetMs) / periodMs) * periodMs + offsetMs;
    }
    case "cron": {
      let due: number | null = null;
      let cursor = new Date(since);
      for (;;) {
        const next = schedule.cron.nextRun(cursor);
        if (!next || next.getTime() > now) return due;
        due = next.getTime();
        cursor = next;
      }
    }
    case "after":
      return null;
  }
}
