import { seriesKey } from "@tidemark/expr";
import type { FireTimes } from "@tidemark/schedule";
import type { StateSource } from "./plugin-state.ts";

/**
 * Freshness (Nagios's freshness checks, Zabbix's nodata(), Prometheus's absent()): every item
 * expects data at its schedule, and one that has had none for N of its intervals is stale — an
 * UNKNOWN state that alerts like any other. When the agent that runs an item has itself stopped
 * calling in, the item is not alerted on its own: the agent gets one alert for all of them.
 */

/** Intervals without data before an item is stale, unless the item says otherwise. */
export const DEFAULT_STALE_AFTER_INTERVALS = 3;

/**
 * An agent calls in at least every 25 s (its configuration long-poll) and ships results every few
 * seconds while it runs checks: this long without a call, it has stopped.
 */
export const AGENT_SILENT_AFTER_MS = 45_000;

/** The series an agent's own alert is raised on: host = the agent's name, service `agent`, item `heartbeat`. */
export function agentHeartbeatKey(agentName: string): string {
  return seriesKey(agentName, "agent", "heartbeat");
}

/**
 * An agent as an item the evaluator knows: no threshold, its state from the results the worker
 * makes up for it (the plugin's exit code), stale after one missed call — so that an agent's
 * alert is raised and closed like any other.
 */
export function agentHeartbeatItem(agentName: string) {
  const stateSource: StateSource = "plugin";
  return {
    seriesKey: agentHeartbeatKey(agentName),
    host: agentName,
    service: "agent",
    item: "heartbeat",
    policy: null,
    intervalMs: null,
    stateSource,
    staleAfterIntervals: 1,
  };
}

/** The earliest of several schedules' next fire times after `after`. */
function nextOfAll(schedules: readonly FireTimes[], after: number): number | null {
  let best: number | null = null;
  for (const s of schedules) {
    const t = s.next(after);
    if (t !== null && (best === null || t < best)) best = t;
  }
  return best;
}

/**
 * When an item whose last data is at `lastTs` becomes stale: the n-th run its schedules expect
 * after it (an interval's runs counted from `lastTs`). null when its schedules expect no more
 * runs (run-after schedules, a cron expression whose years are over).
 */
export function staleAt(schedules: readonly FireTimes[], lastTs: number, n: number): number | null {
  let t = lastTs;
  for (let i = 0; i < n; i++) {
    const next = nextOfAll(schedules, t);
    if (next === null) return null;
    t = next;
  }
  return t;
}

export type ItemFreshness =
  /** Data as expected, or no schedule to expect it by. */
  | { kind: "fresh" }
  /** No data for n intervals: stale since `since`. */
  | { kind: "stale"; since: number }
  /** Its agent has not called in since the item's next result was due: the agent's alert covers it. */
  | { kind: "agent-silent" };

export function itemFreshness(input: {
  now: number;
  schedules: readonly FireTimes[];
  lastTs: number;
  staleAfterIntervals: number;
  /** The agent's last call (null: never); undefined when the worker runs the item (calculations). */
  agentLastSeen?: number | null;
}): ItemFreshness {
  const since = staleAt(input.schedules, input.lastTs, input.staleAfterIntervals);
  if (since === null || input.now < since) return { kind: "fresh" };
  if (input.agentLastSeen !== undefined) {
    const nextDue = nextOfAll(input.schedules, input.lastTs)!;
    if (input.agentLastSeen === null || input.agentLastSeen < nextDue) return { kind: "agent-silent" };
  }
  return { kind: "stale", since };
}

/** When an agent that called in at `lastSeen` counts as having stopped; null while it has not. */
export function agentSilentSince(now: number, lastSeen: number | null): number | null {
  if (lastSeen === null) return null;
  const since = lastSeen + AGENT_SILENT_AFTER_MS;
  return now >= since ? since : null;
}

/** The text of a stale item's or a silent agent's made-up result. */
export function staleReason(input: { intervals: number; lastTs: number }): string {
  return `stale: no data for ${input.intervals} intervals (last at ${new Date(input.lastTs).toISOString()})`;
}

export function agentSilentReason(agent: string, lastSeen: number): string {
  return `stale: agent ${agent} has not called in since ${new Date(lastSeen).toISOString()}`;
}

/**
 * The text of the made-up OK result that closes the heartbeat alert of an agent that runs no
 * service any more: its calls are not watched, so its silence, or its coming back, would never
 * be reported to close the alert.
 */
export function agentIdleReason(agent: string): string {
  return `agent ${agent} runs no service: its calls are no longer watched`;
}
