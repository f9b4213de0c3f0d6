import { type ThresholdPolicy, thresholdPolicySchema } from "@tidemark/thresholds/policy";
import { type Database, poolOf } from "./database.ts";

/**
 * The threshold policy in force for an item: the one frozen in the organisation's deployed version
 * (`deployed_items`), which the worker evaluates, not the saved draft. What exports (Prometheus
 * rules) read, so that what they say is what alerts.
 */
export type DeployedItemPolicy =
  | { status: "not-deployed" }
  | { status: "not-in-deployment"; version: number }
  | {
      status: "deployed";
      version: number;
      seriesKey: string;
      host: string;
      service: string;
      item: string;
      serviceUrl: string;
      policy: ThresholdPolicy | null;
    };

/** null: no such item in the organisation. */
export async function deployedItemPolicy(db: Database, organizationId: string, itemId: string): Promise<DeployedItemPolicy | null> {
  const { rows } = await poolOf(db).query<{
    version: number | null;
    in_deployment: boolean;
    series_key: string;
    host: string;
    service: string;
    item: string;
    service_url: string;
    policy: unknown;
  }>(
    `SELECT (SELECT max(version) FROM deployments WHERE organization_id = $1) AS version,
            d.series_key IS NOT NULL AS in_deployment, d.series_key, d.host, d.service, d.item, d.service_url, d.policy
     FROM service_items i LEFT JOIN deployed_items d ON d.organization_id = i.organization_id AND d.series_key = i.series_key
     WHERE i.organization_id = $1 AND i.id = $2`,
    [organizationId, itemId],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.version === null) return { status: "not-deployed" };
  if (!row.in_deployment) return { status: "not-in-deployment", version: row.version };
  return {
    status: "deployed",
    version: row.version,
    seriesKey: row.series_key,
    host: row.host,
    service: row.service,
    item: row.item,
    serviceUrl: row.service_url,
    policy: row.policy === null ? null : thresholdPolicySchema.parse(row.policy),
  };
}
