import { performance } from "node:perf_hooks";
import type { Database } from "@tidemark/db/client";
import { configurationRevision, deployedConfigurationRevision } from "@tidemark/db/evaluation";
import { summarize } from "./stats.ts";

/**
 * What one look at each configuration revision takes (round trip included): the worker's cache
 * looks at its organisation's every 5 s, its calculations and freshness watch at the deployed one
 * every 10 s and 5 s, and every worker does so.
 */
export async function revisionLookMs(db: Database, organizationId: string, looks = 20) {
  const organization: number[] = [];
  const deployed: number[] = [];
  for (let i = 0; i < looks; i++) {
    let start = performance.now();
    await configurationRevision(db, organizationId);
    organization.push(performance.now() - start);
    start = performance.now();
    await deployedConfigurationRevision(db);
    deployed.push(performance.now() - start);
  }
  return { organization: summarize(organization), deployed: summarize(deployed) };
}
