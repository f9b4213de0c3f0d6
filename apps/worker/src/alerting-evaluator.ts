import type { EvaluationOutcome, ItemIdLookup } from "@tidemark/alerts";
import { type NotificationContextSource, notificationContextOnce, planAlerts } from "@tidemark/db/alerts";
import type { Database } from "@tidemark/db/client";
import type { EvaluationRecord } from "@tidemark/db/evaluation";
import { Evaluator, type EvaluatorOptions } from "./evaluator.ts";
import type { OrganizationCache, OrganizationConfig } from "./organization-cache.ts";
import type { OrganizationWindows } from "./series-window.ts";

/** A record as the alert state machine sees it; the explanation is read from the record only when an alert needs it. */
class RecordOutcome implements EvaluationOutcome {
  readonly seriesId: number;
  readonly ts: Date;
  readonly state: EvaluationRecord["state"];
  readonly hardState: EvaluationRecord["hardState"];
  readonly hard: boolean;
  readonly value: number | null;
  readonly threshold: number | null;
  readonly warning: number | null;
  readonly critical: number | null;

  constructor(
    private readonly record: EvaluationRecord,
    readonly key: string,
  ) {
    this.seriesId = record.seriesId;
    this.ts = new Date(record.ts);
    this.state = record.state;
    this.hardState = record.hardState;
    this.hard = record.state === record.hardState;
    this.value = record.value;
    this.threshold = record.threshold;
    this.warning = record.warning;
    this.critical = record.critical;
  }

  get explanation(): string {
    return this.record.explanation;
  }
}

/** Item ids by series key from the configuration the batch evaluates by: its deployed items that are draft items. */
function itemIdsOf(config: OrganizationConfig): ItemIdLookup {
  return {
    get: (seriesKey) => {
      const seriesId = config.serviceItemSeriesIdByKey.get(seriesKey);
      return seriesId === undefined ? undefined : config.bySeriesId.get(seriesId)?.itemId;
    },
  };
}

export interface AlertingEvaluatorOptions extends EvaluatorOptions {
  /** The dashboard's public URL, for the links in notifications (TIDEMARK_PUBLIC_URL, read by main). */
  publicUrl?: string;
}

/**
 * The worker's evaluator: alerts open, escalate and close in the same transaction as the states
 * they follow. Benchmarks build theirs here too, so that they measure what the worker runs.
 */
export function alertingEvaluator(
  db: Database,
  organizations: OrganizationCache,
  windows: OrganizationWindows,
  options: AlertingEvaluatorOptions = {},
): Evaluator {
  const { publicUrl, ...evaluatorOptions } = options;
  // A batch's slices read the notification context once (notificationContextOnce), not each behind the writes sent before it.
  const contextByBatch = new WeakMap<object, NotificationContextSource>();
  return new Evaluator(
    db,
    organizations,
    windows,
    {
      beforeWrite: async ({ client, organizationId, records, config, statement, alerts, scope }) => {
        const outcomes = records.map((r) => new RecordOutcome(r, config.bySeriesId.get(r.seriesId)?.seriesKey ?? String(r.seriesId)));
        let notificationContext = contextByBatch.get(scope);
        if (notificationContext === undefined) {
          notificationContext = notificationContextOnce(client, organizationId, itemIdsOf(config));
          contextByBatch.set(scope, notificationContext);
        }
        return (await planAlerts(client, organizationId, outcomes, alerts, statement, { externalUrl: publicUrl, notificationContext }))
          .memory;
      },
    },
    evaluatorOptions,
  );
}
