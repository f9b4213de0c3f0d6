import { DEFAULT_STALE_AFTER_INTERVALS, DEFAULT_STATE_SOURCE, STATE_SOURCES } from "@tidemark/alerts";
import { configurationSchema } from "@tidemark/model";
import { z } from "zod";
import { canonicalHash } from "./canonical.ts";

/**
 * What a deployment freezes: the organisation's whole configuration (services, items and their
 * thresholds), which agent runs which service, and the alert settings of items. The assignment
 * is part of the snapshot so that rolling back to a version also rolls back moves of services
 * between agents; the alert settings so that it rolls back what decides an alert, too.
 */
export const serviceAssignmentSchema = z.object({
  host: z.string().min(1),
  service: z.string().min(1),
  agentId: z.string().min(1),
});
export type ServiceAssignment = z.infer<typeof serviceAssignmentSchema>;

/**
 * An item's alert settings: hysteresis, where its state comes from and when its silence is stale.
 * Items left out use the defaults; so do the state source and staleness of snapshots taken before
 * they were deployed (those versions were evaluated with the draft's, mostly the defaults).
 */
export const itemAlertingSchema = z.object({
  host: z.string().min(1),
  service: z.string().min(1),
  item: z.string().min(1),
  recoveryMarginPercent: z.number().min(0).max(1000),
  minimumDurationSeconds: z.number().int().min(0),
  stateSource: z.enum(STATE_SOURCES).default(DEFAULT_STATE_SOURCE),
  staleAfterIntervals: z.number().int().min(1).default(DEFAULT_STALE_AFTER_INTERVALS),
});
export type ItemAlerting = z.infer<typeof itemAlertingSchema>;
type AlertSettings = Omit<ItemAlerting, "host" | "service" | "item">;

export const DEFAULT_ITEM_ALERTING = {
  recoveryMarginPercent: 0,
  minimumDurationSeconds: 0,
  stateSource: DEFAULT_STATE_SOURCE,
  staleAfterIntervals: DEFAULT_STALE_AFTER_INTERVALS,
} as const satisfies AlertSettings;

/** Whether an item's settings are all the defaults (such an item is left out of a snapshot's alert settings). */
export function isDefaultAlerting(settings: z.input<typeof itemAlertingSchema>): boolean {
  return (
    settings.recoveryMarginPercent === DEFAULT_ITEM_ALERTING.recoveryMarginPercent &&
    settings.minimumDurationSeconds === DEFAULT_ITEM_ALERTING.minimumDurationSeconds &&
    (settings.stateSource ?? DEFAULT_STATE_SOURCE) === DEFAULT_ITEM_ALERTING.stateSource &&
    (settings.staleAfterIntervals ?? DEFAULT_STALE_AFTER_INTERVALS) === DEFAULT_ITEM_ALERTING.staleAfterIntervals
  );
}

export const deploymentSnapshotSchema = z.object({
  configuration: configurationSchema,
  assignments: z.array(serviceAssignmentSchema),
  /** Absent from snapshots taken before alert settings were deployed: they all used the defaults. */
  alerting: z.array(itemAlertingSchema).default([]),
});
export type DeploymentSnapshot = z.infer<typeof deploymentSnapshotSchema>;
/** A snapshot as built by a caller (alert settings optional). */
export type DeploymentSnapshotInput = z.input<typeof deploymentSnapshotSchema>;

const byName = <T extends { name: string }>(list: readonly T[]) =>
  [...list].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** Hash of a snapshot, independent of the order hosts, services, items, assignments and alert settings were listed in. */
export function snapshotHash(snapshot: DeploymentSnapshotInput): string {
  const hosts = byName(snapshot.configuration.hosts).map((h) => ({
    ...h,
    services: byName(h.services).map((s) => ({ ...s, items: byName(s.items) })),
  }));
  const assignments = [...snapshot.assignments].map((a) => `${a.host}\u0000${a.service}\u0000${a.agentId}`).sort();
  const alerting = (snapshot.alerting ?? [])
    .filter((a) => !isDefaultAlerting(a))
    .map((a) => {
      const hysteresis = `${a.host}\u0000${a.service}\u0000${a.item}\u0000${a.recoveryMarginPercent}\u0000${a.minimumDurationSeconds}`;
      const stateSource = a.stateSource ?? DEFAULT_STATE_SOURCE;
      const staleAfter = a.staleAfterIntervals ?? DEFAULT_STALE_AFTER_INTERVALS;
      // Appended only when not the defaults, so that versions deployed before they were keep their hash.
      return stateSource === DEFAULT_STATE_SOURCE && staleAfter === DEFAULT_STALE_AFTER_INTERVALS
        ? hysteresis
        : `${hysteresis}\u0000${stateSource}\u0000${staleAfter}`;
    })
    .sort();
  // Left out when empty, so that versions deployed before alert settings keep their hash.
  return canonicalHash(alerting.length ? { hosts, assignments, alerting } : { hosts, assignments });
}
