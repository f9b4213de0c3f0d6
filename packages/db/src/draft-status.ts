import { DEFAULT_STALE_AFTER_INTERVALS, DEFAULT_STATE_SOURCE, type StateSource } from "@tidemark/alerts";
import { diffItemDecision, type FieldChange } from "@tidemark/config-render";
import { thresholdPolicySchema } from "@tidemark/thresholds/policy";
import { getItem } from "./config-edit.ts";
import type { Database } from "./database.ts";

/** How an item's saved draft (threshold and alert settings, state source, staleness) stands against what the worker evaluates. */
export type ItemDeploymentStatus =
  | { status: "not-deployed" }
  | { status: "deployed"; version: number; inDeployment: boolean; differs: boolean; changes: FieldChange[] };

export async function itemDeploymentStatus(db: Database, organizationId: string, itemId: string): Promise<ItemDeploymentStatus> {
  const item = await getItem(db, organizationId, itemId);
  const { rows } = await db.pool.query<{
    version: number | null;
    policy: unknown;
    deployed_margin: number | null;
    deployed_duration: number | null;
    in_deployment: boolean;
    deployed_state_source: string | null;
    deployed_stale_after: number | null;
    draft_margin: number;
    draft_duration: number;
    draft_state_source: string;
    draft_stale_after: number;
  }>(
    `SELECT (SELECT max(version) FROM deployments WHERE organization_id = $1) AS version,
            d.policy, d.alert_recovery_margin AS deployed_margin, d.alert_min_duration_seconds AS deployed_duration, d.series_key IS NOT NULL AS in_deployment,
            d.state_source AS deployed_state_source, d.stale_after_intervals AS deployed_stale_after,
            i.alert_recovery_margin AS draft_margin, i.alert_min_duration_seconds AS draft_duration,
            i.state_source AS draft_state_source, i.stale_after_intervals AS draft_stale_after
     FROM service_items i LEFT JOIN deployed_items d ON d.organization_id = i.organization_id AND d.series_key = i.series_key
     WHERE i.organization_id = $1 AND i.id = $2`,
    [organizationId, itemId],
  );
  const row = rows[0];
  if (!row || row.version === null) return { status: "not-deployed" };
  const draft = {
    policy: item.policy,
    recoveryMarginPercent: row.draft_margin,
    minimumDurationSeconds: row.draft_duration,
    stateSource: row.draft_state_source as StateSource,
    staleAfterIntervals: row.draft_stale_after,
  };
  const parsed = row.policy === null ? null : thresholdPolicySchema.safeParse(row.policy);
  const deployed = row.in_deployment
    ? {
        policy: parsed?.success ? parsed.data : null,
        recoveryMarginPercent: row.deployed_margin ?? 0,
        minimumDurationSeconds: row.deployed_duration ?? 0,
        stateSource: (row.deployed_state_source ?? DEFAULT_STATE_SOURCE) as StateSource,
        staleAfterIntervals: row.deployed_stale_after ?? DEFAULT_STALE_AFTER_INTERVALS,
      }
    : null;
  const changes = diffItemDecision(deployed, draft);
  return {
    status: "deployed",
    version: row.version,
    inDeployment: row.in_deployment,
    differs: !row.in_deployment || changes.length > 0,
    changes,
  };
}
