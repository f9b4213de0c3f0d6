import type { State } from "@tidemark/thresholds";
import { DEFAULT_FLAP_SETTINGS, FLAP_HISTORY, type FlapSettings, nextFlapping, percentStateChange } from "./flapping.ts";
import { clearsRecoveryMargin } from "./hysteresis.ts";
import type { EvaluationOutcome } from "./outcome.ts";
import { severityRank, worseOf } from "./severity.ts";

export interface AlertSettings {
  /** Hysteresis: an OK value must clear the warning boundary by this percent of the threshold. */
  recoveryMarginPercent: number;
  /** A recovery must hold this long before the alert closes. */
  minimumDurationMs: number;
  flap: FlapSettings;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = Object.freeze({
  recoveryMarginPercent: 0,
  minimumDurationMs: 0,
  flap: DEFAULT_FLAP_SETTINGS,
});

export interface OpenAlert {
  severity: State;
  peakSeverity: State;
  openedAt: Date;
  /** Sticky: once an alert has flapped it stays marked, so that closed alerts can be found by it. */
  flapping: boolean;
}

/** What the state machine remembers per series between results. */
export interface AlertTrack {
  /** The latest results' states, oldest first, at most FLAP_HISTORY. */
  recentStates: readonly State[];
  flapping: boolean;
  /** Start of the current run of recovered results while an alert is open. */
  recoveringSince: Date | null;
  lastTs: Date | null;
  open: OpenAlert | null;
}

export const EMPTY_TRACK: AlertTrack = Object.freeze({
  recentStates: [],
  flapping: false,
  recoveringSince: null,
  lastTs: null,
  open: null,
});

/**
 * Whether every step of a run moved its track's last instant and nothing else: no transition, no
 * notification, and the same recent states, flapping and recovery after each step as before it.
 * Such a run's track need not be stored again (its stored `lastTs` stays at the result where it
 * last changed). Each step was a no-op from the same track, so replaying any of its results onto
 * the stored track is one too — which comparing the run's two ends alone would not give: a run
 * longer than the flapping history can open and close an alert and end where it began.
 */
export function onlyLastTsMoved(before: AlertTrack, steps: readonly AlertStep[]): boolean {
  if (before.lastTs === null) return false;
  let previous = before;
  for (const step of steps) {
    if (step.transitions.length > 0 || step.notify !== null || step.heldForFlapping || !sameBesidesLastTs(previous, step.track))
      return false;
    previous = step.track;
  }
  return true;
}

function sameBesidesLastTs(a: AlertTrack, b: AlertTrack): boolean {
  if (a.flapping !== b.flapping) return false;
  if ((a.recoveringSince?.getTime() ?? null) !== (b.recoveringSince?.getTime() ?? null)) return false;
  if (a.recentStates.length !== b.recentStates.length) return false;
  for (let i = 0; i < b.recentStates.length; i++) if (a.recentStates[i] !== b.recentStates[i]) return false;
  return true;
}

export type AlertTransitionKind = "opened" | "escalated" | "deescalated" | "closed" | "flapping-started" | "flapping-stopped";

export interface AlertTransition {
  kind: AlertTransitionKind;
  at: Date;
  /** The alert's severity after the transition (the last severity for `closed`). */
  severity: State;
}

export interface AlertStep {
  outcome: EvaluationOutcome;
  track: AlertTrack;
  transitions: AlertTransition[];
  /** The alert this result touched: still open, or just closed (then `closedAt` is set). */
  alert: (OpenAlert & { closedAt: Date | null }) | null;
  /** The notification this result calls for, before silences and acknowledgements are applied. */
  notify: "firing" | "resolved" | null;
  /** A notification was due but is held because the series flaps. */
  heldForFlapping: boolean;
  flapPercent: number;
}

/**
 * One result through the alert state machine. An alert opens on a hard non-OK state, follows
 * the hard state up (escalation) and down (de-escalation), and closes once the item has recovered
 * (hard OK clearing the recovery margin) for the minimum duration; `closedAt` is when the
 * recovery began. While the series flaps, an open alert does not close and notifications are held;
 * when flapping stops with the alert still open, it is announced again. Results not newer than
 * the last one seen are ignored (null), so that replaying a batch changes nothing.
 */
export function stepAlert(
  track: AlertTrack,
  outcome: EvaluationOutcome,
  settings: AlertSettings = DEFAULT_ALERT_SETTINGS,
): AlertStep | null {
  const at = outcome.ts;
  if (track.lastTs && at.getTime() <= track.lastTs.getTime()) return null;

  // The last FLAP_HISTORY states with this one, in one array (a spread then a slice made two a step).
  const kept = Math.min(track.recentStates.length, FLAP_HISTORY - 1);
  const recentStates = new Array<State>(kept + 1);
  for (let i = 0; i < kept; i++) recentStates[i] = track.recentStates[track.recentStates.length - kept + i]!;
  recentStates[kept] = outcome.state;
  const flapPercent = percentStateChange(recentStates);
  const flapping = nextFlapping(track.flapping, flapPercent, settings.flap);
  const transitions: AlertTransition[] = [];
  let notify: AlertStep["notify"] = null;
  let open = track.open ? { ...track.open } : null;
  let recoveringSince = track.recoveringSince;
  let closedAt: Date | null = null;
  let closedAlert: OpenAlert | null = null;

  if (flapping !== track.flapping) {
    transitions.push({ kind: flapping ? "flapping-started" : "flapping-stopped", at, severity: open?.severity ?? outcome.hardState });
  }

  if (outcome.hardState !== "OK") {
    recoveringSince = null;
    if (!open) {
      open = { severity: outcome.hardState, peakSeverity: outcome.hardState, openedAt: at, flapping };
      transitions.push({ kind: "opened", at, severity: open.severity });
      notify = "firing";
    } else if (outcome.hardState !== open.severity) {
      const kind = severityRank(outcome.hardState) > severityRank(open.severity) ? "escalated" : "deescalated";
      open.severity = outcome.hardState;
      open.peakSeverity = worseOf(open.peakSeverity, outcome.hardState);
      transitions.push({ kind, at, severity: open.severity });
      notify = "firing";
    }
  } else if (open) {
    if (!clearsRecoveryMargin(outcome, settings.recoveryMarginPercent)) {
      recoveringSince = null;
    } else {
      recoveringSince ??= at;
      if (!flapping && at.getTime() - recoveringSince.getTime() >= settings.minimumDurationMs) {
        closedAt = recoveringSince;
        closedAlert = open;
        transitions.push({ kind: "closed", at: closedAt, severity: open.severity });
        notify = "resolved";
        open = null;
        recoveringSince = null;
      }
    }
  }

  if (open) open.flapping = open.flapping || flapping;
  const touched = open ?? closedAlert;
  if (closedAlert) closedAlert.flapping = closedAlert.flapping || flapping;
  if (notify === null && open && transitions.some((t) => t.kind === "flapping-stopped")) notify = "firing";
  const heldForFlapping = flapping && notify !== null;
  if (flapping) notify = null;

  return {
    outcome,
    track: { recentStates, flapping, recoveringSince, lastTs: at, open },
    transitions,
    alert: touched ? { ...touched, closedAt } : null,
    notify,
    heldForFlapping,
    flapPercent,
  };
}

/** Runs a series' results (any order) through the machine; stale results are skipped. */
export function runAlertMachine(
  track: AlertTrack,
  outcomes: readonly EvaluationOutcome[],
  settings?: AlertSettings,
): { track: AlertTrack; steps: AlertStep[] } {
  const ordered = [...outcomes].sort((a, b) => a.ts.getTime() - b.ts.getTime());
  const steps: AlertStep[] = [];
  let current = track;
  for (const outcome of ordered) {
    const step = stepAlert(current, outcome, settings);
    if (!step) continue;
    steps.push(step);
    current = step.track;
  }
  return { track: current, steps };
}
