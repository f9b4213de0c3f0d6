import { percentStateChange } from "./flapping.ts";
import type { AlertStep, AlertTrack } from "./machine.ts";
import { type NotificationNeeds, notificationNeeds, type SeriesAlertMemory, type SeriesRun } from "./notification-plan.ts";
import type { EvaluationOutcome } from "./outcome.ts";

/**
 * Retired series: ones the configuration no longer evaluates (an item a deployment removed, the
 * heartbeat of a revoked agent). No result will ever come to close an alert open on such a series,
 * so it would stay open for good, and be sent again to every repeating receiver and Alertmanager
 * (which keeps an alert firing while it is resent). Prometheus drops the alerts of a rule that a
 * reload removed; here they close, and the receivers told they fired are told they resolved.
 */

/** Why a deployment retires the series of an item it no longer has. */
export function removedItemReason(version: number): string {
  return `retired: the item is no longer in the configuration (deployment v${version})`;
}

/** Why revoking an agent retires its heartbeat series. */
export function revokedAgentReason(agent: string): string {
  return `retired: agent ${agent} was revoked`;
}

/**
 * The result a retired series' alert closes on: no state of its own (UNKNOWN, no value, no
 * threshold), the reason as its explanation (the closing event's detail, the resolution's text).
 */
export function retirementOutcome(seriesId: number, key: string, at: Date, reason: string): EvaluationOutcome {
  return {
    seriesId,
    key,
    ts: at,
    state: "UNKNOWN",
    hardState: "UNKNOWN",
    hard: true,
    value: null,
    threshold: null,
    warning: null,
    critical: null,
    explanation: reason,
  };
}

/**
 * The machine's step that closes a retired series' open alert at `outcome.ts`, whatever its
 * hysteresis, minimum duration or flapping would say: those wait for results that will not come.
 * The resolution is due (sent only where the firing was: planNotifications). The track keeps its
 * states and its last instant, so that results of the series, should it come back, are not
 * mistaken for replays. null when no alert is open.
 */
export function retireAlert(track: AlertTrack, outcome: EvaluationOutcome): AlertStep | null {
  if (!track.open) return null;
  const closed = track.open;
  return {
    outcome,
    track: { ...track, recoveringSince: null, open: null },
    transitions: [{ kind: "closed", at: outcome.ts, severity: closed.severity }],
    alert: { ...closed, closedAt: outcome.ts },
    notify: "resolved",
    heldForFlapping: false,
    flapPercent: percentStateChange(track.recentStates),
  };
}

/** A retired series: its alert memory and the result it closes on (retirementOutcome). */
export interface RetiredSeries {
  memory: SeriesAlertMemory;
  outcome: EvaluationOutcome;
}

/**
 * The runs that close the retired series' open alerts, for planNotifications, and what notifying
 * them needs loaded. Series without an open alert make no run.
 */
export function retirementRuns(retired: readonly RetiredSeries[]): { runs: SeriesRun[]; needs: NotificationNeeds | null } {
  const runs: SeriesRun[] = [];
  for (const { memory, outcome } of retired) {
    const step = retireAlert(memory.track, outcome);
    if (step) runs.push({ seriesId: outcome.seriesId, before: memory, track: step.track, steps: [step] });
  }
  return { runs, needs: notificationNeeds(runs) };
}

/**
 * How long a retired series stays retired once its alert is closed. Meanwhile the evaluator opens
 * no alert on it: a worker reads a new deployment within seconds, and the points of a removed item
 * already queued are evaluated within seconds more, so that none can open an alert no result
 * would close. Ten minutes leave room for a worker catching up on a backlog.
 */
export const RETIRED_SERIES_KEPT_MS = 10 * 60_000;

/** What the worker does with a retired series: close its alert, keep it retired, or forget it. */
export type RetiredSeriesAction = "close" | "keep" | "forget";

export function retiredSeriesAction(input: {
  /** The configuration evaluates the series again (a deployment brought its item back). */
  watched: boolean;
  alertOpen: boolean;
  retiredAt: number;
  now: number;
}): RetiredSeriesAction {
  if (input.watched) return "forget";
  if (input.alertOpen) return "close";
  return input.now - input.retiredAt >= RETIRED_SERIES_KEPT_MS ? "forget" : "keep";
}
