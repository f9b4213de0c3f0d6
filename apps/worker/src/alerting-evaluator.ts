import { type Database, planAlerts } from "@tidemark/db";
import { Evaluator } from "./evaluator.ts";
import type { OrganizationCache } from "./organization-cache.ts";
import type { SeriesWindow } from "./series-window.ts";

/**
 * The worker's evaluator: alerts open, escalate and close in the same transaction as the states
 * they follow. Benchmarks build theirs here too, so that they measure what the worker runs.
 */
export function alertingEvaluator(db: Database, organizations: OrganizationCache, window: SeriesWindow, maxQueueRows?: number): Evaluator {
  return new Evaluator(
    db,
    organizations,
    window,
    {
      beforeWrite: async ({ client, organizationId, records, config, statement, alerts }) => {
        const outcomes = records.map((r) => ({
          seriesId: r.seriesId,
          key: config.bySeriesId.get(r.seriesId)?.seriesKey ?? String(r.seriesId),
          ts: new Date(r.ts),
          state: r.state,
          hardState: r.hardState,
          hard: r.state === r.hardState,
          value: r.value,
          threshold: r.threshold,
          warning: r.warning,
          critical: r.critical,
          explanation: r.explanation,
        }));
        return (await planAlerts(client, organizationId, outcomes, alerts, statement)).memory;
      },
    },
    maxQueueRows,
  );
}
