import type { StateSource } from "@tidemark/alerts";
import { itemDeploymentStatus as compareWithDeployed, type ItemDeploymentStatus, readItemDecision } from "@tidemark/config-render";
import { type Database, poolOf } from "./database.ts";
import { getItem } from "./draft-configuration.ts";

/** How an item's saved draft stands against what the worker evaluates (the comparison is @tidemark/config-render's). */
export async function itemDeploymentStatus(db: Database, organizationId: string, itemId: string): Promise<ItemDeploymentStatus> {
  const item = await getItem(db, organizationId, itemId);
  const { rows } = await poolOf(db).query<{
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
  if (!row) return { status: "not-deployed" };
  const deployed = row.in_deployment
    ? readItemDecision({
        policy: row.policy,
        recoveryMarginPercent: row.deployed_margin,
        minimumDurationSeconds: row.deployed_duration,
        stateSource: row.deployed_state_source,
        staleAfterIntervals: row.deployed_stale_after,
      })
    : null;
  return compareWithDeployed(row.version, deployed, {
    policy: item.policy,
    recoveryMarginPercent: row.draft_margin,
    minimumDurationSeconds: row.draft_duration,
    stateSource: row.draft_state_source as StateSource,
    staleAfterIntervals: row.draft_stale_after,
  });
}
