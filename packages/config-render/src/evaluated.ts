import type { StateSource } from "@tidemark/alerts";
import { intervalMs, seriesKey } from "@tidemark/model";
import type { ThresholdPolicy } from "@tidemark/thresholds/policy";
import { DEFAULT_ITEM_ALERTING, type DeploymentSnapshot } from "./snapshot.ts";

/** One item as the worker evaluates it under a deployed version. */
export interface EvaluatedItemSpec {
  seriesKey: string;
  host: string;
  service: string;
  item: string;
  /** The service's connection URL and schedules, and the item's exec statement (a calculation's expression). */
  url: string;
  schedules: string[];
  execStatement: string;
  policy: ThresholdPolicy | null;
  /** The shortest interval of the service's schedules (null for cron and run-after schedules). */
  intervalMs: number | null;
  recoveryMarginPercent: number;
  minimumDurationSeconds: number;
  /** Where the item's state comes from (threshold, plugin, worst). */
  stateSource: StateSource;
  /** No data for this many intervals makes the item stale. */
  staleAfterIntervals: number;
}

export function shortestInterval(schedules: readonly string[]): number | null {
  const intervals = schedules.map(intervalMs).filter((ms) => ms !== null);
  return intervals.length ? Math.min(...intervals) : null;
}

const itemPath = (host: string, service: string, item: string) => `${host}\u0000${service}\u0000${item}`;

/** Every item of a snapshot with the threshold and alert settings the worker evaluates it with. */
export function evaluatedItems(snapshot: Pick<DeploymentSnapshot, "configuration" | "alerting">): EvaluatedItemSpec[] {
  const alerting = new Map(snapshot.alerting.map((a) => [itemPath(a.host, a.service, a.item), a]));
  const out: EvaluatedItemSpec[] = [];
  for (const host of snapshot.configuration.hosts) {
    for (const service of host.services) {
      const interval = shortestInterval(service.schedules);
      for (const item of service.items) {
        const settings = alerting.get(itemPath(host.name, service.name, item.name)) ?? DEFAULT_ITEM_ALERTING;
        out.push({
          seriesKey: seriesKey(host.name, service.name, item.name),
          host: host.name,
          service: service.name,
          item: item.name,
          url: service.url,
          schedules: [...service.schedules],
          execStatement: item.execStatement,
          policy: item.policy,
          intervalMs: interval,
          recoveryMarginPercent: settings.recoveryMarginPercent,
          minimumDurationSeconds: settings.minimumDurationSeconds,
          stateSource: settings.stateSource,
          staleAfterIntervals: settings.staleAfterIntervals,
        });
      }
    }
  }
  return out;
}
