import type { State } from "@tidemark/thresholds";
import { type AlertSettings, type AlertStep, type AlertTrack, onlyLastTsMoved, runAlertMachine } from "./machine.ts";
import type { EvaluationOutcome } from "./outcome.ts";
import { notificationAction, type ReceiverPolicy, receiverWants } from "./routing.ts";
import { type SilenceWindow, silenceCovers } from "./silences.ts";
import { alertmanagerPayload } from "./webhook-payload.ts";

/**
 * From a batch of evaluated results to what is to be stored: alerts opened, changed and closed,
 * their events, the machines' memory and the notifications to queue. Two steps, because what
 * the second needs from the database (silences, receivers, acknowledgements) is only worth
 * loading when the first found a notification due: `runSeriesMachines` runs each series' state
 * machine and says what it needs; `planNotifications` decides the rest.
 */

/** What deciding a series' alerts needs from before the batch. */
export interface SeriesAlertMemory {
  key: string;
  settings: AlertSettings;
  /** The state machine's memory, `open` included. */
  track: AlertTrack;
  /** The stored open alert (`track.open`), when there is one. */
  openAlert: { id: string; notifiedAt: Date | null } | null;
}

/** Alert memories by series id. */
export type AlertMemoryLookup = Pick<ReadonlyMap<number, SeriesAlertMemory>, "get" | "has">;

/** One series' machine over the batch. */
export interface SeriesRun {
  seriesId: number;
  before: SeriesAlertMemory;
  track: AlertTrack;
  steps: AlertStep[];
}

/** What the notification step needs loaded: the silences over [from, to], which alerts are acknowledged, the items of these keys. */
export interface NotificationNeeds {
  from: Date;
  to: Date;
  /** Open alerts, from before the batch, that a notification is due on. */
  alertIds: string[];
  keys: string[];
}

/** An item's id by its series key (undefined when the key is no item's). */
export interface ItemIdLookup {
  get(seriesKey: string): string | undefined;
}

/** What the notification step reads: silences in force, enabled receivers, acknowledged alerts, item ids for links. */
export interface NotificationContext {
  silences: readonly (SilenceWindow & { id: string })[];
  receivers: readonly ReceiverPolicy[];
  acknowledged: ReadonlySet<string>;
  /** The organisation's slug, Alertmanager's `organization` label. */
  organization: string | undefined;
  /** Item ids by series key, for the preview link: a map, or a look-up into the caller's configuration. */
  items: ItemIdLookup;
}

export const NO_NOTIFICATION_CONTEXT: NotificationContext = Object.freeze({
  silences: [],
  receivers: [],
  acknowledged: new Set<string>(),
  organization: undefined,
  items: new Map<string, string>(),
});

/** Series among the outcomes whose memory is not in `remembered`, in order of first appearance. */
export function seriesToLoad(outcomes: readonly EvaluationOutcome[], remembered: AlertMemoryLookup): number[] {
  const ids = new Set<number>();
  for (const o of outcomes) if (!remembered.has(o.seriesId)) ids.add(o.seriesId);
  return [...ids];
}

/**
 * Each series' results through its state machine. A series without memory is not the
 * organisation's and is left out; a series whose results change nothing (replays) too.
 */
export function runSeriesMachines(
  outcomes: readonly EvaluationOutcome[],
  memoryOf: (seriesId: number) => SeriesAlertMemory | undefined,
): { runs: SeriesRun[]; needs: NotificationNeeds | null } {
  const bySeries = new Map<number, EvaluationOutcome[]>();
  for (const o of outcomes) {
    const list = bySeries.get(o.seriesId);
    if (list) list.push(o);
    else bySeries.set(o.seriesId, [o]);
  }
  const runs: SeriesRun[] = [];
  for (const [seriesId, list] of bySeries) {
    const before = memoryOf(seriesId);
    if (!before) continue;
    const { track, steps } = runAlertMachine(before.track, list, before.settings);
    if (steps.length === 0) continue;
    runs.push({ seriesId, before, track, steps });
  }
  return { runs, needs: notificationNeeds(runs) };
}

/** What the runs' due notifications need loaded; null when none is due. */
export function notificationNeeds(runs: readonly SeriesRun[]): NotificationNeeds | null {
  const dueOnExisting = new Set<string>();
  const notifiedKeys = new Set<string>();
  let minTs = Number.POSITIVE_INFINITY;
  let maxTs = Number.NEGATIVE_INFINITY;
  for (const { before, steps } of runs) {
    for (const step of steps) {
      if (!step.notify) continue;
      notifiedKeys.add(before.key);
      minTs = Math.min(minTs, step.outcome.ts.getTime());
      maxTs = Math.max(maxTs, step.outcome.ts.getTime());
      if (before.openAlert) dueOnExisting.add(before.openAlert.id);
    }
  }
  return notifiedKeys.size > 0
    ? { from: new Date(minTs), to: new Date(maxTs), alertIds: [...dueOnExisting], keys: [...notifiedKeys] }
    : null;
}

/** An alert as it stands after the batch: to insert when new, to update otherwise. */
export interface PlannedAlert {
  id: string;
  isNew: boolean;
  seriesId: number;
  key: string;
  severity: State;
  peakSeverity: State;
  openedAt: Date;
  closedAt: Date | null;
  flapping: boolean;
  notifiedAt: Date | null;
  /** The result that opened it (new alerts only). */
  opening: EvaluationOutcome | null;
}

export interface PlannedEvent {
  alertId: string;
  ts: Date;
  kind: string;
  severity: State;
  outcome: EvaluationOutcome | null;
  detail: string;
}

export interface PlannedDelivery {
  receiverId: string;
  alertId: string;
  payload: unknown;
}

export interface PlannedTrack {
  seriesId: number;
  track: AlertTrack;
  flapPercent: number;
}

export interface AlertPlanSummary {
  opened: number;
  closed: number;
  events: number;
  deliveries: number;
}

export interface AlertPlan {
  /** The tracks to store: those that changed more than their last instant (onlyLastTsMoved); `memory` has every one. */
  tracks: PlannedTrack[];
  alerts: PlannedAlert[];
  events: PlannedEvent[];
  deliveries: PlannedDelivery[];
  summary: AlertPlanSummary;
  /** The memory of every series the batch touched, as it stands once the plan is stored. */
  memory: Map<number, SeriesAlertMemory>;
}

export interface NotificationPlanOptions {
  /** The dashboard's public URL, for the payload's links (read by the app, never here). */
  publicUrl: string;
  /** A fresh id for each alert opened. */
  newId: () => string;
}

/**
 * The alerts, events, tracks and deliveries the runs call for. A due notification is sent to
 * every receiver that wants it unless it is silenced (firing only), acknowledged or held for
 * flapping — those are recorded as `notification-held` events; a resolution goes to the
 * receivers that could have been told the alert fired (by its peak severity), and only if its
 * firing was ever sent.
 */
export function planNotifications(runs: readonly SeriesRun[], context: NotificationContext, options: NotificationPlanOptions): AlertPlan {
  const summary: AlertPlanSummary = { opened: 0, closed: 0, events: 0, deliveries: 0 };
  const tracks: PlannedTrack[] = [];
  const alerts = new Map<string, PlannedAlert>();
  const events: PlannedEvent[] = [];
  const deliveries: PlannedDelivery[] = [];
  const memory = new Map<number, SeriesAlertMemory>();

  for (const { seriesId, before, track, steps } of runs) {
    const key = before.key;
    // A series that stays in one state — most of a fleet, most of the time — would otherwise
    // rewrite its track at every result for its last instant alone.
    if (!onlyLastTsMoved(before.track, steps))
      tracks.push({ seriesId, track, flapPercent: (steps[steps.length - 1] as AlertStep).flapPercent });
    let current: PlannedAlert | null =
      before.openAlert && before.track.open
        ? {
            id: before.openAlert.id,
            isNew: false,
            seriesId,
            key,
            severity: before.track.open.severity,
            peakSeverity: before.track.open.peakSeverity,
            openedAt: before.track.open.openedAt,
            closedAt: null,
            flapping: before.track.open.flapping,
            notifiedAt: before.openAlert.notifiedAt,
            opening: null,
          }
        : null;
    for (const step of steps) {
      const { outcome } = step;
      for (const t of step.transitions) {
        if (t.kind === "opened") {
          current = {
            id: options.newId(),
            isNew: true,
            seriesId,
            key,
            severity: t.severity,
            peakSeverity: t.severity,
            openedAt: t.at,
            closedAt: null,
            flapping: false,
            notifiedAt: null,
            opening: outcome,
          };
          summary.opened++;
        }
        if (!current) continue;
        alerts.set(current.id, current);
        const detail = t.kind.startsWith("flapping")
          ? `${step.flapPercent.toFixed(1)} % state change over the last 21 results`
          : outcome.explanation;
        events.push({
          alertId: current.id,
          ts: t.kind === "closed" ? t.at : outcome.ts,
          kind: t.kind,
          severity: t.severity,
          outcome,
          detail,
        });
      }
      if (!current || !step.alert) continue;
      const alert: PlannedAlert = current;
      alerts.set(alert.id, alert);
      alert.severity = step.alert.severity;
      alert.peakSeverity = step.alert.peakSeverity;
      alert.flapping = step.alert.flapping;
      alert.closedAt = step.alert.closedAt;

      const due = step.notify;
      const silence = due === "firing" ? context.silences.find((s) => silenceCovers(s, key, outcome.ts)) : undefined;
      const decision =
        due || step.heldForFlapping
          ? notificationAction({
              due: due || "firing",
              heldForFlapping: step.heldForFlapping,
              acknowledged: context.acknowledged.has(alert.id),
              silencedBy: silence?.id ?? null,
              firingWasSent: alert.notifiedAt !== null,
            })
          : null;
      if (decision?.action === "hold") {
        events.push({
          alertId: alert.id,
          ts: outcome.ts,
          kind: "notification-held",
          severity: alert.severity,
          outcome,
          detail: `notification held: ${decision.reason}`,
        });
      } else if (due && decision?.action === "send") {
        // A resolution goes to the receivers that could have been told it fired (at its worst severity).
        const severity = due === "firing" ? alert.severity : alert.peakSeverity;
        const receivers = context.receivers.filter((r) => receiverWants(r, key, severity));
        for (const r of receivers) {
          deliveries.push({
            receiverId: r.id,
            alertId: alert.id,
            payload: alertmanagerPayload({
              receiver: r.name,
              externalUrl: options.publicUrl,
              organization: context.organization,
              alert: {
                id: alert.id,
                key,
                status: due,
                severity: alert.severity,
                openedAt: alert.openedAt,
                closedAt: alert.closedAt,
                value: outcome.value,
                threshold: outcome.threshold,
                warning: outcome.warning,
                critical: outcome.critical,
                explanation: outcome.explanation,
                flapping: alert.flapping,
                itemId: context.items.get(key) ?? null,
              },
            }),
          });
        }
        if (due === "firing" && receivers.length > 0) alert.notifiedAt ??= outcome.ts;
      }
      if (alert.closedAt) {
        summary.closed++;
        current = null;
      }
    }
    memory.set(seriesId, {
      key,
      settings: before.settings,
      track,
      openAlert: current ? { id: current.id, notifiedAt: current.notifiedAt } : null,
    });
  }
  summary.events = events.length;
  summary.deliveries = deliveries.length;
  return { tracks, alerts: [...alerts.values()], events, deliveries, summary, memory };
}
